-- Which template method prepared a template: the extractor compiles it with the same method.
ALTER TABLE templates ADD COLUMN method text NOT NULL DEFAULT 'fastce+';
