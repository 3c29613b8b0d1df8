// Fragment (a predicate, included as {{typed_vector(m.embedding, $dimension)}}): true when the stored value __m__
// is a vector that the vector index, vector.similarity.cosine, vector() and a GDS projection all accept: a list
// of __now__ numbers, each finite and within float32's range (abs(NaN) < 1e38 is false), not all zero. A value
// replaced by hand (a string, a list of another length or of text, a NaN, 1e300, zeros) is left out: any of
// them would fail the whole statement, for every memory of the tenant. Reads every coordinate: used where few
// vectors are checked (pending memories, a user's entities, summary chains, the GDS projection), not by recall.
coalesce(CASE WHEN __m__ IS :: LIST<INTEGER NOT NULL | FLOAT NOT NULL> AND size(__m__) = __now__
              THEN all(gm_x IN __m__ WHERE abs(gm_x) < 1.0e38) AND any(gm_x IN __m__ WHERE gm_x <> 0) END, false)
