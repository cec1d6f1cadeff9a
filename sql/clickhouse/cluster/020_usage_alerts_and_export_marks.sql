-- The alert and export-mark tables of sql/clickhouse/020_usage_alerts_and_export_marks.sql
-- behind Distributed tables, an org per shard like the usage tables.
CREATE TABLE IF NOT EXISTS {database}.usage_alert_rules AS {database}_shard.usage_alert_rules
ENGINE = Distributed({cluster}, {database}_shard, usage_alert_rules, cityHash64(org_id));

CREATE TABLE IF NOT EXISTS {database}.usage_alert_firings AS {database}_shard.usage_alert_firings
ENGINE = Distributed({cluster}, {database}_shard, usage_alert_firings, cityHash64(org_id));

CREATE TABLE IF NOT EXISTS {database}.usage_export_marks AS {database}_shard.usage_export_marks
ENGINE = Distributed({cluster}, {database}_shard, usage_export_marks, cityHash64(org_id));

CREATE TABLE IF NOT EXISTS {database}.usage_export_changes AS {database}_shard.usage_export_changes
ENGINE = Distributed({cluster}, {database}_shard, usage_export_changes, cityHash64(org_id));
