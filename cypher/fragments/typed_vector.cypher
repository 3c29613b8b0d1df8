// Fragment (a predicate, included as {{typed_vector(m.embedding, $dimension)}}): true when the stored value __m__
// is a vector of __now__ numbers, the space's dimension, without a NaN (a NaN makes a list unequal to itself). A
// value replaced by hand (a string, a list of another length or of text, a NaN) is left out: the vector index,
// vector.similarity.cosine, vector() and a GDS projection would fail the whole statement on it, for every memory
// of the tenant.
coalesce(__m__ IS :: LIST<INTEGER NOT NULL | FLOAT NOT NULL> AND size(__m__) = __now__ AND __m__ = __m__, false)
