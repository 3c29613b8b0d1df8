// Fragment (an expression, included as {{typed_cosine(m.embedding, $embedding)}}): the cosine of the stored
// vector __m__ with the vector __now__, or null when the stored value is not a list of numbers of its length (an
// embedding replaced by hand) or holds a NaN: vector.similarity.cosine would fail the whole query. (A list compares
// equal to itself element by element, natively: measured free beside the cosine; coordinates so large that the
// norm overflows, 1e300 written by hand, still fail it: checking each one costs +50 %.) The property is read
// once (a 384-float array is decoded on each read).
[gm_e IN [__m__] | CASE WHEN gm_e IS :: LIST<INTEGER NOT NULL | FLOAT NOT NULL> AND size(gm_e) = size(__now__)
                        AND gm_e = gm_e
                        THEN vector.similarity.cosine(gm_e, __now__) END][0]
