// When a RELATED_TO edge's derived weight falls below the pruning floor (the forget job reads only due edges).
CREATE INDEX related_weight_due IF NOT EXISTS FOR ()-[r:RELATED_TO]-() ON (r.weight_due)
