-- Identity and access: people, sessions, API tokens, two-factor, sign-in throttling, audit log.
-- Every timestamp is epoch milliseconds from the service Clock (no SQL now()).

CREATE TABLE people (
  id                  text PRIMARY KEY,
  email               text NOT NULL,
  name                text,
  role                text NOT NULL CHECK (role IN ('viewer', 'approver', 'operator')),
  enabled             boolean NOT NULL DEFAULT true,
  -- `pbkdf2-sha256$<iterations>$<salt>$<hash>`; null = no password set.
  password_hash       text,
  password_temporary  boolean NOT NULL DEFAULT false,
  -- TOTP secret encrypted with the service secret key; set once two-factor is on.
  totp_secret         text,
  totp_enabled_at     bigint,
  -- Secret shown on the enrolment page, waiting for its first code.
  totp_pending_secret text,
  created_at          bigint NOT NULL,
  created_by          text,
  updated_at          bigint NOT NULL
);
CREATE UNIQUE INDEX people_email_lower ON people (lower(email));

-- Dashboard sessions: only the SHA-256 of the cookie token is stored.
CREATE TABLE sessions (
  id           text PRIMARY KEY,
  token_hash   bytea NOT NULL UNIQUE,
  -- Null for a workspace-password session (actor `operator`).
  person_id    text REFERENCES people (id) ON DELETE CASCADE,
  created_at   bigint NOT NULL,
  last_used_at bigint NOT NULL,
  user_agent   text,
  ip           text
);
CREATE INDEX sessions_person ON sessions (person_id);

-- A correct password waiting for its second factor (10 minutes).
CREATE TABLE sign_in_challenges (
  id          text PRIMARY KEY,
  token_hash  bytea NOT NULL UNIQUE,
  person_id   text NOT NULL REFERENCES people (id) ON DELETE CASCADE,
  next_path   text,
  created_at  bigint NOT NULL,
  expires_at  bigint NOT NULL
);

CREATE TABLE api_tokens (
  id                  text PRIMARY KEY,
  name                text NOT NULL,
  role                text NOT NULL CHECK (role IN ('viewer', 'approver', 'operator')),
  token_hash          bytea NOT NULL UNIQUE,
  prefix              text NOT NULL,
  created_by          text NOT NULL,
  created_by_id       text,
  created_at          bigint NOT NULL,
  -- Null = never expires (also every token made before expiry existed).
  expires_at          bigint,
  last_used_at        bigint,
  revoked_at          bigint,
  expired_audited_at  bigint
);

-- Recovery codes: SHA-256 of the normalised code; a used code is deleted.
CREATE TABLE recovery_codes (
  id          text PRIMARY KEY,
  person_id   text NOT NULL REFERENCES people (id) ON DELETE CASCADE,
  code_hash   bytea NOT NULL,
  created_at  bigint NOT NULL
);
CREATE INDEX recovery_codes_person ON recovery_codes (person_id);

-- Each TOTP time step works once per person.
CREATE TABLE totp_used_steps (
  person_id  text NOT NULL REFERENCES people (id) ON DELETE CASCADE,
  step       bigint NOT NULL,
  used_at    bigint NOT NULL,
  PRIMARY KEY (person_id, step)
);

-- One row per failed attempt under a throttling key (`pair:`, `address:`, `email:`, `code:`, `account:`, `bearer:`).
CREATE TABLE auth_failures (
  key  text NOT NULL,
  at   bigint NOT NULL
);
CREATE INDEX auth_failures_key_at ON auth_failures (key, at);
CREATE INDEX auth_failures_at ON auth_failures (at);

CREATE TABLE audit_events (
  id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  at          bigint NOT NULL,
  action      text NOT NULL,
  actor       text NOT NULL,
  actor_id    text,
  actor_kind  text NOT NULL,
  target      text,
  detail      jsonb,
  ip          text
);
CREATE INDEX audit_events_at ON audit_events (at DESC, id DESC);
