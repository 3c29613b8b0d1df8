// Fragment (a predicate, included as {{typed_vector(m.embedding, $dimension)}}): true when the stored value __m__
// is a vector of __now__ numbers, the space's dimension. A value replaced by hand (a string, a list of another
// length or of text) is left out: the vector index, vector.similarity.cosine and a GDS projection would fail
// the whole statement on it, for every memory of the tenant.
coalesce(__m__ IS :: LIST<INTEGER NOT NULL | FLOAT NOT NULL> AND size(__m__) = __now__, false)
