-- Connected apps (contract section 12): the authorization server's records, and the grants a person sees and controls.

-- oidc-provider's models (clients, interactions, codes, access and refresh tokens, grants, sessions) as JSON payloads.
CREATE TABLE oauth_store (
  model        text NOT NULL,
  id           text NOT NULL,
  payload      jsonb NOT NULL,
  grant_id     text,
  uid          text,
  user_code    text,
  expires_at   bigint,            -- epoch ms; null = never
  consumed_at  bigint,
  PRIMARY KEY (model, id)
);
CREATE INDEX oauth_store_grant_idx ON oauth_store (grant_id) WHERE grant_id IS NOT NULL;
CREATE INDEX oauth_store_uid_idx ON oauth_store (uid) WHERE uid IS NOT NULL;
CREATE INDEX oauth_store_expiry_idx ON oauth_store (expires_at) WHERE expires_at IS NOT NULL;

-- One row per app a person connected: what the Account page lists and Disconnect ends.
CREATE TABLE oauth_grants (
  id            text PRIMARY KEY,          -- oidc-provider's grant id
  person_id     text NOT NULL REFERENCES people (id),
  client_id     text NOT NULL,
  app_name      text NOT NULL,
  kind          text NOT NULL CHECK (kind IN ('mcp', 'a2a')),
  resource      text NOT NULL,             -- the endpoint's address, BASE_URL/mcp or BASE_URL/a2a
  role          text NOT NULL CHECK (role IN ('viewer', 'approver', 'operator')),
  connected_at  bigint NOT NULL,
  revoked_at    bigint
);
CREATE INDEX oauth_grants_person_idx ON oauth_grants (person_id, connected_at DESC) WHERE revoked_at IS NULL;
