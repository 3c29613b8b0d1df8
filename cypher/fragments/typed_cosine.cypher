// Fragment (an expression, included as {{typed_cosine(m.embedding, $embedding)}}): the cosine of the stored
// vector __m__ with the vector __now__, or null when the stored value is not a list of numbers of its length (an
// embedding replaced by hand): vector.similarity.cosine would fail the whole query. The property is read
// once (a 384-float array is decoded on each read). Coordinates are not checked: a NaN (`e = e` is false), one
// so large that the norm overflows, or zeros still fail the cosine, and the store reruns the refused statement
// with strict_cosine (graphmem.store.strict_vectors.with_strict_vectors). The NaN check alone measured +6-10 % of
// recall_pool (benchmarks/pool_ab.py, two runs), so the common path does not make it.
[gm_e IN [__m__] | CASE WHEN gm_e IS :: LIST<INTEGER NOT NULL | FLOAT NOT NULL> AND size(gm_e) = size(__now__)
                        THEN vector.similarity.cosine(gm_e, __now__) END][0]
