// One JobSlot per job and slot (id "<config id>/<job>@<slot ISO>"): the worker whose MERGE creates it runs the slot.
CREATE CONSTRAINT job_slot_id_unique IF NOT EXISTS FOR (s:JobSlot) REQUIRE s.id IS UNIQUE
