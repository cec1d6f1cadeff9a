-- Credits per processed page, by product and feature. Usage events take their credits from
-- here, computed as DECIMAL so sums stay exact.
CREATE TABLE price_table (
  product VARCHAR NOT NULL,
  feature VARCHAR NOT NULL,
  credits_per_page DECIMAL(18, 6) NOT NULL,
  PRIMARY KEY (product, feature)
);
INSERT INTO price_table VALUES
  ('classify', 'classify', 0.5),
  ('classify', 'deep_classify', 1.5);
