-- Edit (form filling): its price per page and its model family. Filling a form reads every
-- page (fields, captions) and writes the document again, about what extract costs.
INSERT INTO price_table VALUES
  ('edit', 'edit', 2);

-- The edit request of the reductoai SDK has no settings object; the pin sits at the top
-- level, as the deep split pin does.
INSERT INTO model_families VALUES
  ('edit_model', 'alpha.edit_model',
   'Matches edit instructions to form fields (names, tooltips, captions) and types values');

INSERT INTO model_versions VALUES
  ('edit_model', 'edit-v1', DATE '2026-10-05', 'form-fill',
   'Fields matched by words and the multilingual sentence encoder; dates, numbers, ticks typed');
