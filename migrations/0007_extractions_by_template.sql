-- A page type's health counts the extractions its templates read (on every page read alone, and
-- for `winnow templates list`): found by template, not by reading the whole table.
CREATE INDEX extractions_template ON extractions (template_id);
