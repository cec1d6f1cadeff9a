-- When each UTC day of an organization's usage was first exported, and when its figures
-- last changed after that (a late event or a correction), so the dashboard can mark days
-- whose exported figures are out of date (docs/decisions/0275-revised-days-after-export.md).
CREATE TABLE usage_export_marks (
  org_id VARCHAR NOT NULL,
  day DATE NOT NULL,
  first_exported_at TIMESTAMPTZ NOT NULL,
  changed_at TIMESTAMPTZ,
  PRIMARY KEY (org_id, day)
);
