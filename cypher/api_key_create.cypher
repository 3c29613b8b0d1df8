// Store a new API key: only a salted SHA-256 of its secret, never the secret.
// $id, $salt, $hash, $scope: admin | user | agent | org, $subject: the scoped id (null for admin),
// $label, $now
CREATE (k:ApiKey {id: $id, salt: $salt, hash: $hash, scope: $scope, subject: $subject, label: $label,
                  created_at: $now})
RETURN k {.id, .scope, .subject, .label, .created_at} AS key
