// Fragment (an expression): typed_cosine that also reads every coordinate of both vectors, null unless each
// is finite and within float32's range and each vector has one that is not zero (abs(NaN) < 1e38 is false).
// A NaN, 1e300 or zeros written by hand into a stored vector make vector.similarity.cosine refuse the whole
// statement (GQL status 22N38), so the store reruns a refused statement once with this fragment in place of
// typed_cosine (query name "strict:<name>", graphmem.store.strict_vectors.with_strict_vectors). The checks cost
// about as much as the cosines they guard, paid only by a tenant that holds such a vector, until
// `graphmem reembed` rewrites it.
[gm_e IN [__m__] | CASE WHEN gm_e IS :: LIST<INTEGER NOT NULL | FLOAT NOT NULL>
                         AND __now__ IS :: LIST<INTEGER NOT NULL | FLOAT NOT NULL> AND size(gm_e) = size(__now__)
                        THEN CASE WHEN all(gm_x IN gm_e WHERE abs(gm_x) < 1.0e38) AND any(gm_x IN gm_e WHERE gm_x <> 0)
                                   AND all(gm_x IN __now__ WHERE abs(gm_x) < 1.0e38)
                                   AND any(gm_x IN __now__ WHERE gm_x <> 0)
                                  THEN vector.similarity.cosine(gm_e, __now__) END END][0]
