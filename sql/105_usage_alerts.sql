-- Usage alerts: thresholds an organization sets on its credits or requests per UTC day or
-- month, optionally for one product or one metadata value; the crossings they recorded; and
-- the outbox of crossings not yet handed to webhook delivery
-- (docs/decisions/0270-usage-alerts-fire-once-per-crossing.md).
CREATE TABLE usage_alert_rules (
  alert_id VARCHAR PRIMARY KEY,
  org_id VARCHAR NOT NULL,
  name VARCHAR NOT NULL,
  -- 'credits' | 'requests'
  measure VARCHAR NOT NULL,
  -- 'day' | 'month' (UTC)
  period VARCHAR NOT NULL,
  threshold DECIMAL(38, 6) NOT NULL,
  product VARCHAR,
  metadata_key VARCHAR,
  metadata_value VARCHAR,
  webhook_url VARCHAR NOT NULL,
  created_at TIMESTAMPTZ NOT NULL
);

-- One row per crossing: the primary key is what makes a crossing fire once, whatever the
-- number of writers, replays or evaluations that see the total at or above the threshold.
CREATE TABLE usage_alert_firings (
  alert_id VARCHAR NOT NULL,
  period_start DATE NOT NULL,
  firing_id VARCHAR NOT NULL,
  org_id VARCHAR NOT NULL,
  period_end DATE NOT NULL,
  total DECIMAL(38, 6) NOT NULL,
  fired_at TIMESTAMPTZ NOT NULL,
  -- The webhook body as sent (the rule's settings at the time of the crossing).
  payload VARCHAR NOT NULL,
  webhook_url VARCHAR NOT NULL,
  PRIMARY KEY (alert_id, period_start)
);

-- Crossings committed but not yet handed to webhook delivery; a row leaves in the same
-- transaction that creates its delivery.
CREATE TABLE usage_alert_outbox (
  firing_id VARCHAR PRIMARY KEY,
  org_id VARCHAR NOT NULL,
  webhook_url VARCHAR NOT NULL,
  payload VARCHAR NOT NULL,
  created_at TIMESTAMPTZ NOT NULL
);
