// Store a new API key: only a salted SHA-256 of its secret, never the secret.
// $id, $salt, $hash, $scope: admin | user | agent | org, $subject: the scoped id (null for admin),
// $agent_id, $org_id: the shared scopes a user key may also reach (null: none; docs/scopes.md)
// $label, $now
CREATE (k:ApiKey {id: $id, salt: $salt, hash: $hash, scope: $scope, subject: $subject, label: $label,
                  agent_id: $agent_id, org_id: $org_id, created_at: $now})
RETURN k {.id, .scope, .subject, .agent_id, .org_id, .label, .created_at} AS key
