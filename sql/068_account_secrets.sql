-- Server-side secrets of the accounts plane, generated once per data directory
-- (the dashboard session cookie's signing key).
CREATE TABLE account_secrets (
  name VARCHAR PRIMARY KEY,
  value VARCHAR NOT NULL
);
