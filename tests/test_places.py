"""Which names are places people live in (GeoNames, offline), as a household's move reads them."""

from __future__ import annotations

import pytest

from graphmem.model.places import is_place


@pytest.mark.parametrize(
    "name", ["Harrogate", "Totnes", "Leeds, UK", "the Netherlands", "Netherlands", "UK", "Ohio", "new york"]
)
def test_a_town_a_country_or_a_state_is_a_place(name: str) -> None:
    assert is_place(name)


@pytest.mark.parametrize("name", ["Slack", "Python 3.12", "the Premium plan", "Teams", "Notion", "", "the"])
def test_a_tool_a_plan_or_nothing_is_not(name: str) -> None:
    assert not is_place(name)
