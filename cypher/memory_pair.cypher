// The owners of two memories (link() refuses missing memories and links across users).
// $src, $dst
OPTIONAL MATCH (a:Memory {id: $src})
OPTIONAL MATCH (b:Memory {id: $dst})
RETURN a.user_id AS src_user, b.user_id AS dst_user
