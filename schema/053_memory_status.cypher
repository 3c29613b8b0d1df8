// No query seeks memories by status alone (jobs select by tenant, or scan every memory), while every status
// change (decay, forget, consolidate) paid for updating an index on it: the index is dropped where it exists.
DROP INDEX memory_status IF EXISTS
