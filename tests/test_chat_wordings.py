"""Where the user lives and works, as people type it in a chat: "i" and "im" in lower case, a subject dropped
in the present ("live in Berlin", "Working at Deloitte, Dublin.", "At Stripe now"), a job changed in other
words ("made the jump to", "got hired by", "first week at ... done", "I work in Nubank"), where one works
named with its town ("KPMG in Toronto"); and the same words that tell a trip, a hobby, an errand or someone
else's news, which change nothing. First what a turn states (pure), then conversations on the real server."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from conversation import MARCH, NOW, assert_values_after, home_and_work, on, say, value_at

from graphmem import GraphMemory
from graphmem.model.elided import restore
from graphmem.model.fact_patterns import extract
from graphmem.model.planned import fact_start


@pytest.mark.parametrize(
    ("text", "stated"),
    [
        # "i" and "im" as typed
        ("i work at HSBC", {("employer", "HSBC")}),
        ("im in Melbourne", {("location", "Melbourne")}),
        ("ive been in Leeds since 2019", {("location", "Leeds")}),
        # a present subject dropped
        ("live in Berlin", {("location", "Berlin")}),
        (
            "Based in Johannesburg, work at Standard Bank.",
            {("location", "Johannesburg"), ("employer", "Standard Bank")},
        ),
        (
            "Working at Deloitte, Dublin. Need a template for a timesheet.",
            {("employer", "Deloitte"), ("location", "Dublin")},
        ),
        ("Left Deloitte in Sept. At Stripe now, same city.", {("employer", "Stripe")}),
        ("Based in Cape Town, working at Takealot.", {("location", "Cape Town"), ("employer", "Takealot")}),
        ("I live in Leeds 😀. I work at Acme 🙂 !", {("location", "Leeds"), ("employer", "Acme")}),
        # a job changed in other words
        (
            "Made the jump to Monash Health a few weeks back, way better culture.",
            {("employer", "Monash Health")},
        ),
        ("I got hired by Sonae last month!", {("employer", "Sonae")}),
        ("3 months in Denver now and I still can't get used to the altitude.", {("location", "Denver")}),
        ("Quick one: first week at Salesforce done.", {("employer", "Salesforce")}),
        ("I live in São Paulo, I work in Nubank.", {("location", "São Paulo"), ("employer", "Nubank")}),
        ("I am working in Infosys, Bangalore office, since 2019.", {("employer", "Infosys")}),
        (
            "Joined TCS in Pune last month itself, shifted with family also.",
            {("employer", "TCS"), ("location", "Pune")},
        ),
        ("work at KPMG, it's fine", {("employer", "KPMG")}),
        (
            "now that I'm with Shelter Cymru the job takes me to Cardiff every day.",
            {("employer", "Shelter Cymru")},
        ),
        (
            "I've been at Houston Methodist since April and rent is $1,350.",
            {("employer", "Houston Methodist")},
        ),
        (
            "As someone who just started at the Canada Mortgage and Housing Corporation, I want to read up.",
            {("employer", "Canada Mortgage and Housing Corporation")},
        ),
        (
            "Three weeks in at the British Library and the team is lovely.",
            {("employer", "British Library")},
        ),
        (
            "My sister got a job at Amgen. I'm at Genentech in South San Francisco, so she'll be far.",
            {("employer", "Genentech"), ("location", "South San Francisco")},
        ),
        ("me? still at Dell, same old job", {("employer", "Dell")}),
        (
            "I am a postdoc at the University of Michigan and have lived in Ann Arbor since 2022.",
            {("employer", "University of Michigan"), ("location", "Ann Arbor")},
        ),
        (
            "I work at Jollibee Foods Corporation in Pasig and next week I fly to Hanoi.",
            {("employer", "Jollibee Foods Corporation")},
        ),
        ("got transferred to the Manchester office so we've relocated to Salford", {("location", "Salford")}),
        # as a profile or an update puts it
        (
            "Product manager @ Atlassian, based in Sydney.",
            {("employer", "Atlassian"), ("location", "Sydney")},
        ),
        ("Senior analyst at KPMG, Toronto.", {("employer", "KPMG"), ("location", "Toronto")}),
        (
            "PS I forgot to tell you, I left KPA in May, now I am with Bamburi Cement.",
            {("employer", "Bamburi Cement")},
        ),
        (
            "I finished at Deloitte in June and started at the Ministry of Health in Wellington in July.",
            {("employer", "Ministry of Health"), ("location", "Wellington")},
        ),
        ("edit: I teach at Omaha Central High School now.", {("employer", "Omaha Central High School")}),
        ("I've been doing supply work for Highland Council since May.", {("employer", "Highland Council")}),
        (
            "I left Zenith in September and I now head credit risk at Fidelity Bank.",
            {("employer", "Fidelity Bank")},
        ),
        ("I'm at Barclays, compliance team", {("employer", "Barclays")}),
        ("been at Accenture 4 yrs now, time flies", {("employer", "Accenture")}),
        ("I reside in Enugu with my family.", {("location", "Enugu")}),
        ("We stay in Pune so the east side is best.", {("location", "Pune")}),
        ("the kids and I finally moved to Tauranga!!", {("location", "Tauranga")}),
        # the third probe's, read after its blind score
        ("I work at Target corporate in Minneapolis.", {("employer", "Target"), ("location", "Minneapolis")}),
        ("I work for Fonterra in their logistics team.", {("employer", "Fonterra")}),
        ("I work at Foyles on Charing Cross Road, mostly in the kids' section.", {("employer", "Foyles")}),
        ("I am working in TCS Chennai.", {("employer", "TCS"), ("location", "Chennai")}),
        ("I'm in Lyon atm and still haven't packed a single box", {("location", "Lyon")}),
        ("renting in Cardiff atm, what's a fair price for a 2 bed?", {("location", "Cardiff")}),
        ("I'm a Brazilian living in Lisbon for four years now.", {("location", "Lisbon")}),
        (
            "I live in Valencia and work in Mercadona offices.",
            {("location", "Valencia"), ("employer", "Mercadona")},
        ),
        ("my flat in Reading has a mouse problem", {("location", "Reading")}),
        (
            "update lol: escaped the boiler nightmare, moved down to Newcastle last weekend.",
            {("location", "Newcastle")},
        ),
        (
            "grand so I'm not at Bewley's anymore, got taken on by Aer Lingus as cabin crew",
            {("employer", "Aer Lingus")},
        ),
        (
            "We moved from Toronto to Halifax last year.",
            {("location", "Halifax")},
        ),  # (a place ending in "to")
        # a home in other words
        ("well we'd moved to Cork by the time the baby came in march", {("location", "Cork")}),
        (
            "since we'd left Toronto for Hamilton last fall the rent has been better",
            {("location", "Hamilton")},
        ),
        # a big city by another name ("Bangalore" is GeoNames' Bengaluru), "shifted" as "moved"
        (
            "I have joined Flipkart last month and shifted to Bangalore for the same.",
            {("location", "Bangalore")},
        ),
        (
            "Having moved to Aberystwyth in July, I have yet to register with a GP.",
            {("location", "Aberystwyth")},
        ),
        ("ok update: quit samsung, moved back home to Busan, so much cheaper", {("location", "Busan")}),
        ("Since moving to Graz in the spring, what's the best way to learn German?", {("location", "Graz")}),
        ("We now call Tauranga home.", {("location", "Tauranga")}),
        ("My new flat in Leeds is tiny but I love it.", {("location", "Leeds")}),
        # the town before the home, where the home is, a move told as "shifted" (round 45)
        (
            "Finally unpacked the last box in our Bergen apartment! Best waterproof jacket?",
            {("location", "Bergen")},
        ),
        ("my London flat is tiny, any storage hacks?", {("location", "London")}),
        (
            "ok so we moved in together!! our new place is in Round Rock, way cheaper",
            {("location", "Round Rock")},
        ),
        ("Joined a new team this month. Shifted to Mumbai with family.", {("location", "Mumbai")}),
        ("So we finally did it — moved to Bath last weekend! Any recs?", {("location", "Bath")}),
        ("Settled into Tacoma finally, the house is so much bigger.", {("location", "Tacoma")}),
        (
            "We bought a house in Gleisdorf, moved in June! Vegetable garden tips?",
            {("location", "Gleisdorf")},
        ),
        (
            "hi! I'm a data analyst at Allianz here in Munich. meal prep plan?",
            {("employer", "Allianz"), ("location", "Munich")},
        ),
        ("I'm a backend engineer at Shopify (fully remote). Design doc tips?", {("employer", "Shopify")}),
        (
            "I live in Brussels, working at the European Commission as translator.",
            {("location", "Brussels"), ("employer", "European Commission")},
        ),
        (
            "I'm in Cape Town, working at Takealot, any hikes?",
            {("location", "Cape Town"), ("employer", "Takealot")},
        ),
        (
            "i live in tbilisi, work for TBC Bank. gift for my boss?",
            {("location", "tbilisi"), ("employer", "TBC Bank")},
        ),
        ("I work at TCS Chennai.", {("employer", "TCS"), ("location", "Chennai")}),
        ("I work at Unilever in supply chain.", {("employer", "Unilever")}),  # not "Unilever in"
        # where one works, with its town: where one lives, unless the turn says otherwise
        ("I'm an accountant at KPMG in Toronto.", {("employer", "KPMG"), ("location", "Toronto")}),
        ("I work for Atlassian in Sydney.", {("employer", "Atlassian"), ("location", "Sydney")}),
        (
            "I work at the Bank of England in London.",
            {("employer", "Bank of England"), ("location", "London")},
        ),
        ("I work for Google in Zurich but live in Basel.", {("employer", "Google")}),
        ("I work at Theatre in the Park.", {("employer", "Theatre in the Park")}),
        (
            "I'm a teacher at Nairobi Academy, living in Nairobi.",
            {("employer", "Nairobi Academy"), ("location", "Nairobi")},
        ),
    ],
)
def test_a_chat_states_where_one_lives_and_works(text: str, stated: set[tuple[str, str]]) -> None:
    assert home_and_work(text) == stated


@pytest.mark.parametrize(
    "text",
    [
        # a trip, a visit, a sight (the sentence or the next tells it)
        "I'm in Tokyo, landed an hour ago.",
        "I'm in Dublin. Any restaurant recommendations?",
        "I'm in Rome, it's gorgeous.",
        "I'm in Leeds, at my mum's.",
        "I've been in Iceland for a month, heading home soon.",
        "I've been in Australia for two months backpacking.",
        "Six months in Bali now, best trip ever.",
        "Home is Cork, for my grandparents.",
        # someone else's move, the subject dropped after them
        "Jake's doing well. Moved to Denver in the spring.",
        "What about Tom? Moved to Leeds, last I heard.",
        "My sister? Moved to Madrid last year.",
        "Just moved to a new desk at work.",
        # a role that is no job, a shop, an app or a class
        "I'm a striker for Ashford Town FC.",
        "I'm a godmother at St Paul's on Sunday.",
        "I'm at Pret now, on my lunch break from work.",
        "I'm at Costa now, the office wifi is down.",
        "I'm joining Duolingo on 1 January to learn Spanish.",
        "I start at Bupa on Monday for physio.",
        "I'm joining Crossfit on the 1st.",
        "I joined Strava last week.",
        # a gerund, a trade, a department, a town
        "Working at Google was hard.",
        "Living in London is expensive.",
        "I work in HR.",
        "I work in Retail.",
        "I work in London.",
        "My sister, living in Leeds, is fine.",
        "At Tesco now, want anything?",
        "My sister is in Leeds, working at Asda.",
        "Since moving to Paris for the summer I've been eating well.",
        "Our new place in Rome for the holidays is lovely.",
        "My new house in Cornwall, to rent out, needs work.",
        "I'm at Tesco in Leeds, want anything?",
        "I'm at Ikea in Croydon and the queue is insane.",
        "I'm still at Tesco for milk.",
        "I started at the University of Leeds in September.",
        "work at Stripe is grand tbh, it's just the getting there",
        "My sister quit, moved to Leeds.",
        "Meeting with the manager at Tesco.",
        "Lunch with the head chef at Dishoom.",
        "If I ever got an offer from Google I'd move to Accra in a heartbeat, lol.",
        "I lead worship at St Mary's.",
        "I'm doing some work for my mum.",
        "I teach yoga at the community centre.",
        "I'm staying in Paris this week.",
        "When I stay in London I use the tube.",
        "I'm at Tesco, in the bread aisle",
        # (the review's: a service, an app, a trip or an errand, in the words of a job)
        "I made the switch to Octopus Energy",
        "I made the jump to Notion from Evernote",
        "I got hired by Uber for a ride yesterday lol",
        "first day at Legoland was amazing",
        "I've been at church since 2010",
        "I've been at Gran's since March, helping out",
        "still at Tesco, want anything?",
        "now that I'm with Sky, I get all the sports",
        "as someone who just joined Twitter, what's a ratio?",
        "Two days in at Center Parcs and the kids love it",
        "I'm working in Starbucks today, the wifi is good",
        "My sister, having moved to Leeds, loves it",
        "I saw Tom, moved to Leeds last year apparently",
        "Having moved to Leeds for a week of training, I'm shattered",
        "3 months in Bali now, the digital nomad life",
        "I went to the shops, living in Bath is great",
        "live in Berlin? no way, too expensive",
        "I'm still in Madrid until Sunday",
        "we're still staying in Rome, the hotel is great",
        "I'm still at Sainsbury's until I leave, queue is mad",
        "our old Leeds flat was so damp",
        "my Cornwall holiday house needs a new roof",
        "We loved our Paris apartment for the week",
        "Loved our Lisbon apartment on holiday, what a view",
        "We've handed back the keys to our Lisbon flat, so we're homeless for a month",
        "We sold our Leeds house in the spring",
        "My Google Home keeps mishearing me",
        "The team shifted to Python last year",
        "My sister — moved to Leeds last year, loves it",
        "Tom - moved to Leeds",
        "Settled in now, the new place is lovely.",
        "Settled into a routine now",
        "I think so, working at Google sounds fun",
        "I work at home mostly",
        "I told my boss, work at home is fine",
        "Our Manchester flat is on hold.",
        # a review's (round 45): other people's moves, homes left, let or missed, a stay, the job as a subject
        "I heard from Jo yesterday — moved to Leeds with her boyfriend",
        "I think my brother — moved to Madrid last year — is happy",
        "We put our Leeds flat on the market",
        "We're renting out our Leeds flat from June",
        "My ex still lives in our Denver apartment",
        "I grew up in my Bristol house",
        "I loved my Barcelona apartment back in 2019",
        "Our Rome apartment has a great view, we're here till Sunday",
        "I'm in a good place, working at Costa is fine",
        "I'm in charge of hiring, working at Amazon is stressful",
        "Settled into Seattle for the conference",
        "Just settled into Rome for the week",
        "We both live in hope.",
        "I bought a house in Leeds, moved in with my parents till it's ready",
        "The Leeds house purchase fell through, our Leeds house hunt goes on",
    ],
)
def test_the_same_words_state_no_home_or_job(text: str) -> None:
    assert home_and_work(text) == set()


def test_what_is_restored_maps_back_to_the_message_as_typed() -> None:
    text = "hi! im in Melbourne. live in Carlton actually"
    said, back = restore(text)
    assert said == "hi! I'm in Melbourne. I live in Carlton actually"
    carlton = said.index("Carlton")
    assert text[back(carlton) : back(carlton + len("Carlton"))] == "Carlton"
    assert back(said.index("I live")) == text.index("live")  # inside a subject: where the sentence starts
    [fact] = [f for f in extract(text) if f.key == "location"]
    assert fact.value == "Carlton"
    assert fact.span is not None and text[fact.span[0] : fact.span[1]].startswith("live in Carlton")


def test_a_job_changed_in_a_chat_and_its_town(mem: GraphMemory, user_id: str) -> None:
    say(mem, user_id, on(1), "Working at Deloitte, Dublin. Need a template for a timesheet.")
    say(mem, user_id, on(5), "Left Deloitte in Sept. At Stripe now, same city.")
    assert value_at(mem, user_id, "employer", NOW) == "Stripe"
    assert value_at(mem, user_id, "location", NOW) == "Dublin"


@pytest.mark.parametrize(
    ("key", "turns", "now"),
    [
        (
            "location",
            [(1, "im in Melbourne"), (8, "joined Fitness First yesterday, need a beginner program")],
            "Melbourne",
        ),
        (
            "location",
            [
                (1, "I'm an accountant at KPMG in Toronto."),
                (4, "I'm in Lagos this week for a client workshop."),
            ],
            "Toronto",
        ),
        (
            "location",
            [(1, "i live in Austin, TX."), (9, "3 months in Denver now and I still can't sleep.")],
            "Denver",
        ),
        ("employer", [(2, "I'm a PM at Microsoft."), (9, "first week at Salesforce done.")], "Salesforce"),
    ],
)
def test_the_value_held_after_a_chat(
    mem: GraphMemory, user_id: str, key: str, turns: list[tuple[int, str]], now: str
) -> None:
    assert_values_after(mem, user_id, key, turns, now, now)


@pytest.mark.parametrize(
    ("text", "ended"),
    [
        ("Still sorting out my work permit so I'm not working yet.", True),
        ("I'm unemployed lol", True),
        ("I'm between jobs at the moment.", True),
        ("I'm not working today.", False),
        ("I'm not working on that.", False),
        ("I'm not working for free.", False),
    ],
)
def test_no_job_now_said_without_a_name(text: str, ended: bool) -> None:
    assert [(f.key, f.value) for f in extract(text) if f.ends] == ([("employer", "")] if ended else [])


def test_an_emoji_ends_nothing_it_stands_beside() -> None:
    [offer] = extract("Figma rescinded the offer 😞 so I'm staying at Canva for now.")
    assert (offer.key, offer.value, offer.withdraws) == ("employer", "Figma", True)


def test_a_move_re_dated_in_a_chat(mem: GraphMemory, user_id: str) -> None:
    say(mem, user_id, on(1), "I live in Dubai.")
    say(mem, user_id, on(2), "Relocating to Doha on 1 February.")
    say(mem, user_id, on(3), "The Doha move got delayed, now it's March 15.")
    assert value_at(mem, user_id, "location", MARCH) == "Dubai"
    assert value_at(mem, user_id, "location", datetime(2027, 3, 16, 12, tzinfo=UTC)) == "Doha"


@pytest.mark.parametrize(
    ("text", "plan"),
    [
        (
            "handed in my notice!! starting at Sheffield Hallam University on January 11th as a lecturer",
            ("employer", "Sheffield Hallam University"),
        ),
        ("I start at the University of Leeds on 20 September.", None),  # a student's start
        ("I'm starting at Victoria on Monday.", None),  # a name a person's or a town's, no word of work
        (
            "Big news, I've been offered a role at Air New Zealand and I said yes! Start date is 1 February.",
            ("employer", "Air New Zealand"),
        ),
        ("I got accepted to join Equity Bank from 1st July as a data analyst.", ("employer", "Equity Bank")),
        ("I'm at Unilever in London, leaving to join Diageo on 4 January.", ("employer", "Diageo")),
        ("We fly to São Paulo on the 10th of March and we stay there for good.", ("location", "São Paulo")),
        ("I'm joining Amazon in Seattle on January 4th.", ("employer", "Amazon")),
        ("I reside in Enugu and we plan to relocate to Lagos in March 2027.", ("location", "Lagos")),
        ("so we will now relocate to Lagos on 10 January.", ("location", "Lagos")),
    ],
)
def test_a_place_of_study_is_a_plan_of_work_only_with_a_job(text: str, plan: tuple[str, str] | None) -> None:
    planned = [(f.key, f.value) for f in extract(text) if f.planned]
    assert planned == ([plan] if plan else [])


def test_a_plans_day_said_before_the_cue_of_the_next_sentence() -> None:
    text = "We had an offer accepted on a house in Poole! Completion is 22 January, so that's when we move."
    [plan] = [f for f in extract(text) if f.planned]
    assert plan.value == "Poole"
    assert fact_start(text, plan.span, on(1, 11), future=True) == datetime(2027, 1, 22, tzinfo=UTC)


def test_a_plans_day_said_after_it_in_its_own_sentence() -> None:
    text = "I accepted an offer from the Harris County Attorney's Office and I start January 4th."
    [plan] = [f for f in extract(text) if f.planned]
    assert plan.value == "Harris County Attorney's Office"  # (not "... and I")
    assert fact_start(text, plan.span, on(28, 11), future=True) == datetime(2027, 1, 4, tzinfo=UTC)


def test_a_move_called_off_before_a_dash() -> None:
    [off] = [f for f in extract("The Bergen move is off - my partner's job fell through.") if f.withdraws]
    assert (off.key, off.value) == ("location", "Bergen")


def test_one_subject_restored_where_two_openers_meet() -> None:
    text = "Based in Cape Town,\nworking at Takealot. I moved to Leeds in 2020"
    said, _ = restore(text)
    assert said.count("I'm working") == 1, said
    [moved] = [f for f in extract(text) if f.key == "location"]
    assert moved.span is not None and text[moved.span[0] : moved.span[1]].startswith("I moved to Leeds")


@pytest.mark.parametrize(
    "text",
    [
        # a plan's date corrected only by a date (not "maybe", "100%", "months off", "next level")
        "the move is maybe happening, not sure yet",
        "the move is 100% happening, not cancelled",
        "my start date is months off, not weeks",
        # a trip, a call or a sale in a plan's words
        "The company is sending me to Berlin for a conference in April",
        "I was transferred to Customer Services on the phone for an hour",
        "We transferred to Manchester at Crewe, the train was late",
        "I'll be at Harrods from the 1st, Christmas shopping before my job starts",
        "I accepted the offer from Zillow on the house, we move on the 3rd",
        # a slip owned in a longer message about something else
        "sorry my mistake, it's Zoom not Teams for the call",
        "Scratch that, I meant Netflix, the show is on Netflix",
        # someone else's home, a mode of mind
        "He's got no job and no fixed address, poor guy",
        "I'm out of work mode for the holidays",
        # the second review's
        "My sister is still in Paris.",
        "Is Tom still in Paris?",
        "We're staying in Cornwall till the end of August.",
        "Liverpool for now, but City will catch up.",
        "Based in Leeds? DM me for the meetup.",
        "Our hotel, based in Sydney, is lovely.",
        "The nurse at Leeds General was lovely.",
        "Driver at Uber was rude today.",
        "Product manager @ Atlassian is hiring, anyone?",
        "They're sending me to Berlin for two weeks in April.",
        "Work is sending me to Paris on Monday.",
        "I'm flying to Lisbon on 12 March and quitting sugar for good.",
        "I got transferred to Customer Services, no help at all.",
        "Now I'm with Octopus Energy, much cheaper.",
        "Signed with Octopus Energy, switch date is February 2nd.",
        "I'm joining Netflix on 1 January, can't wait to binge.",
        "I'm starting at Tesco on Monday, doing the big shop for mum.",
        "we stay in Premier Inn when in London.",
        "I teach at Sunday school.",
        "started at the Ministry of Sound in London last night, what a club.",
        "Moving to the Gold Coast on 3 March for a week of surfing.",
        "We found a house in Dundee for my mum, she moves in on the 3rd.",
        "I'm joining Amazon in Seattle on January 4th for a hackathon.",
        "I'm not working right now, on my lunch.",
        "They fire me from the five-a-side team lol.",
        "My bad, it's Zoom.",
        "Tom quit, got a job at Google.",
        "Not working at all anymore.",  # (said of a thing as often: a laptop, a tap)
        "I shifted my meeting to Monday.",
        "my old flat in Leeds had mice",
        "our holiday house in Cornwall is lovely",
    ],
)
def test_the_review_s_sentences_change_nothing(text: str) -> None:
    assert [f for f in extract(text) if f.key in ("location", "employer")] == []


def test_runs_of_newlines_and_emoji_openers() -> None:
    assert extract("\n" * 5000 + "x") == []  # (linear: each opener's spaces stop at a newline)
    [lost] = [f for f in extract("😭 Got laid off from Wells Fargo.") if f.ends]
    assert lost.value == "Wells Fargo"
    assert [(f.key, f.value) for f in extract("Big news 🎉 Got the job at Stripe!")] == [
        ("employer", "Stripe")
    ]


def test_an_accepted_job_without_a_day_is_held_now() -> None:
    facts = extract("I've accepted a job at Google, starting as a junior engineer.")
    assert ("employer", "Google", False) in [(f.key, f.value, f.planned) for f in facts]


@pytest.mark.parametrize(
    ("text", "ended"),
    [
        ("quit starbucks yesterday!! no job rn and honestly loving it", ("employer", "")),
        ("Well, that's me retired! Had my leaving do on Friday.", ("employer", "")),
        ("I resigned from Foyles last month to look after my mum.", ("employer", "Foyles")),
    ],
)
def test_a_job_ended_in_other_words(text: str, ended: tuple[str, str]) -> None:
    assert ended in [(f.key, f.value) for f in extract(text) if f.ends]


def test_a_plan_called_off_by_telling_the_firm() -> None:
    text = "Barclays made a counteroffer and I took it, so I've told Monzo I'm not coming after all."
    assert [(f.key, f.value) for f in extract(text) if f.withdraws] == [("employer", "Monzo")]


def test_a_household_all_moving_is_a_plan() -> None:
    """A household "all moving" plans a move, as one moving does ("we're all moving to Bend in July"): a
    review found the first version read it as a home from the day it was said."""
    for text in ("so we're all moving to Bend in July", "so we're moving to Bend in July"):
        (fact,) = extract(text)
        assert (fact.key, fact.value, fact.ahead) == ("location", "Bend", True), text


@pytest.mark.parametrize(
    ("text", "key", "value"),
    [
        (
            "Small correction: I said I live in Lyon but it's actually Villeurbanne, near me?",
            "location",
            "Villeurbanne",
        ),
        ("I said I work at Acme but I actually work at Initech", "employer", "Initech"),
    ],
)
def test_a_statement_said_before_and_corrected_states_only_the_correction(
    text: str, key: str, value: str
) -> None:
    """The statement reported as said ("I said I live in Lyon") is not stated again: the correction alone is
    read (before round 45 the old value was read too, and as the later fact it won)."""
    facts = extract(text)
    assert [(f.key, f.value, f.corrects is not None) for f in facts] == [(key, value, True)]


@pytest.mark.parametrize(
    "text", ["As I said I live in Leeds, so nothing in London please", "like I said I live in Leeds"]
)
def test_a_statement_said_again_ishome_and_work(text: str) -> None:
    assert home_and_work(text) == {("location", "Leeds")}
