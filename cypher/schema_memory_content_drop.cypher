// Retire the full-text index memory_content so that init() recreates it over the current property list
// (run only when graphmem.store.migrations finds it lacks a property). No parameters.
DROP INDEX memory_content IF EXISTS
