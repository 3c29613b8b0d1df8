// RELATED_TO edges by the pruning floor they were last evaluated under (the decay job seeks those a config change moved).
CREATE INDEX related_weight_floor IF NOT EXISTS FOR ()-[r:RELATED_TO]-() ON (r.weight_floor)
