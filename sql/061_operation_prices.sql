-- Credits per page for parse, extract and split, next to classify's rows in the
-- processing plane's price table. Deep variants cost more, as deep classify does.
INSERT INTO price_table VALUES
  ('parse', 'parse', 1),
  ('extract', 'extract', 2),
  ('extract', 'deep_extract', 4),
  ('split', 'split', 1),
  ('split', 'deep_split', 2);
