-- Model version registry (spec "Versioning", "States and transitions").
--
-- A family is a kind of model an operation runs; a version is one release of it. Only the
-- rollout start date is stored: the stage (alpha, default, deprecated, removed) is computed
-- from it and from the next version's start date at request time, so the table never needs
-- a scheduled job to move versions along. A release that ships a new model version adds a
-- row in a new migration; rows are never updated.
CREATE TABLE model_families (
  family      VARCHAR PRIMARY KEY,
  -- The request field that pins a version of this family, or NULL when it is not pinnable
  -- (the classifier's version is reported, never chosen by the client).
  pin_field   VARCHAR,
  description VARCHAR NOT NULL
);

CREATE TABLE model_versions (
  family        VARCHAR NOT NULL REFERENCES model_families (family),
  version       VARCHAR NOT NULL,
  -- First day (UTC) of week 1 of the version's 4-week rollout.
  rollout_start DATE NOT NULL,
  -- The code path that implements this version (src/processing/*/ *.engines.ts); several
  -- versions may share an engine with different parameters.
  engine        VARCHAR NOT NULL,
  notes         VARCHAR NOT NULL DEFAULT '',
  PRIMARY KEY (family, version),
  -- Two versions of a family starting the same day would both become default at once.
  UNIQUE (family, rollout_start)
);

INSERT INTO model_families VALUES
  ('layout_model', 'settings.alpha.layout_model',
   'Forms parse blocks (type, bounding box, reading order) from page text and positions'),
  ('extract_model', 'settings.alpha.extract_model',
   'Finds schema values (labels, key-value lines, tables) for extract'),
  ('deep_extract_model', 'settings.alpha.deep_extract_model',
   'The slower, more thorough extract pass used when settings.deep_extract is true'),
  ('deep_split_model', 'alpha.deep_split_model',
   'Assigns pages to split sections when settings.deep_split is true'),
  ('classifier', NULL,
   'The classify pipeline; reported in responses, not pinnable');

-- Dates are fixed so the history is real data, not relative to whenever the migration ran.
-- They were chosen so that on 2026-11-21 each family shows a different part of the
-- lifecycle (see docs/decisions/0036-model-version-registry-as-data.md).
INSERT INTO model_versions VALUES
  ('layout_model', 'layout-v2', DATE '2026-09-01', 'line-blocks-basic',
   'Line-level blocks, Title/Text only'),
  ('layout_model', 'layout-v3', DATE '2026-10-20', 'line-blocks',
   'Line-level blocks typed as title, section header, list item, header/footer, page number'),
  ('layout_model', 'layout-v4', DATE '2026-11-16', 'paragraph-blocks',
   'Lines merged into paragraphs, table detection'),
  ('extract_model', 'extract-v1', DATE '2026-08-03', 'label-exact',
   'Exact "Label: value" lines only'),
  ('extract_model', 'extract-v2', DATE '2026-10-05', 'label-normalized',
   'Case/punctuation-insensitive labels, value on the next line, tables; values as written'),
  ('extract_model', 'extract-v3', DATE '2026-11-02', 'label-typed',
   'As extract-v2, with numbers and dates normalized to the schema type (ISO dates)'),
  ('deep_extract_model', 'deep-extract-v1', DATE '2026-07-06', 'fuzzy-synonyms',
   'Fuzzy label matching with synonyms, multi-line values, table rows'),
  ('deep_extract_model', 'deep-extract-v2', DATE '2026-09-14', 'fuzzy-synonyms',
   'Same engine as deep-extract-v1 (serving re-release)'),
  ('deep_extract_model', 'deep-extract-v3', DATE '2026-11-09', 'fuzzy-synonyms-described',
   'Also matches labels against each property''s description'),
  ('deep_split_model', 'deep-split-v1', DATE '2026-08-17', 'page-evidence',
   'Each page assigned independently from its own evidence'),
  ('deep_split_model', 'deep-split-v2', DATE '2026-11-04', 'page-evidence-continuity',
   'Pages without evidence continue the section before them'),
  ('classifier', 'classify-v1', DATE '2026-06-01', 'lexical', 'Lexical-semantic classifier'),
  ('classifier', 'classify-v2', DATE '2026-10-12', 'lexical',
   'Lexical-semantic classifier with lemmas');
