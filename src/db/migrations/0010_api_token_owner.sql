-- An API token acts for the person behind its creator: tokens made with another token name that token's owner.
--
-- Security review H3: each use of a token now re-reads its owner (`api_tokens.created_by_id`, joined
-- to `people`): a disabled owner refuses the token and the owner's current role caps it. Tokens made
-- through another API token used to record that token's id there, which names no person; they now
-- record the person the making token acted for (null when the chain starts at the workspace password).
WITH RECURSIVE chain (id, owner, depth) AS (
  SELECT t.id, t.created_by_id, 0 FROM api_tokens t WHERE t.created_by_id IN (SELECT id FROM api_tokens)
  UNION ALL
  SELECT chain.id, maker.created_by_id, chain.depth + 1
  FROM chain JOIN api_tokens maker ON maker.id = chain.owner
  WHERE chain.depth < 1000
)
UPDATE api_tokens t
SET created_by_id = chain.owner
FROM chain
WHERE chain.id = t.id
  AND (chain.owner IS NULL OR NOT EXISTS (SELECT 1 FROM api_tokens other WHERE other.id = chain.owner));
