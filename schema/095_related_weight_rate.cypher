// RELATED_TO edges by the decay rate they were last evaluated under (the decay job seeks those a config change moved).
CREATE INDEX related_weight_rate IF NOT EXISTS FOR ()-[r:RELATED_TO]-() ON (r.weight_rate)
