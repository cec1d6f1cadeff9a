-- Accounts: organizations, users, memberships and the two kinds of API key.
-- Key secrets are never stored: only the SHA-256 of the full token (hex), looked up by key id.
CREATE TABLE organizations (
  id VARCHAR PRIMARY KEY,
  name VARCHAR NOT NULL,
  created_at TIMESTAMPTZ NOT NULL DEFAULT now()
);

CREATE TABLE users (
  id VARCHAR PRIMARY KEY,
  email VARCHAR NOT NULL UNIQUE,
  created_at TIMESTAMPTZ NOT NULL DEFAULT now()
);

CREATE TABLE memberships (
  org_id VARCHAR NOT NULL REFERENCES organizations (id),
  user_id VARCHAR NOT NULL REFERENCES users (id),
  role VARCHAR NOT NULL CHECK (role IN ('owner', 'admin', 'member')),
  created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
  PRIMARY KEY (org_id, user_id)
);

-- Personal keys for the account dashboard API (usage export); optional default org.
CREATE TABLE account_api_keys (
  id VARCHAR PRIMARY KEY,
  user_id VARCHAR NOT NULL REFERENCES users (id),
  default_org_id VARCHAR REFERENCES organizations (id),
  name VARCHAR,
  secret_hash VARCHAR NOT NULL,
  created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
  revoked_at TIMESTAMPTZ
);

-- Keys for the document-processing API; usage is attributed to their org.
CREATE TABLE processing_api_keys (
  id VARCHAR PRIMARY KEY,
  org_id VARCHAR NOT NULL REFERENCES organizations (id),
  name VARCHAR,
  secret_hash VARCHAR NOT NULL,
  created_by_user_id VARCHAR,
  created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
  revoked_at TIMESTAMPTZ
);

CREATE INDEX memberships_by_user ON memberships (user_id);
CREATE INDEX processing_api_keys_by_org ON processing_api_keys (org_id);
