-- The pipeline's self-check, page by page, and each template's health over time: the share of
-- pages its reading was not trusted on (read alone) and the words it kept.
ALTER TABLE extractions ADD COLUMN read_alone boolean NOT NULL DEFAULT false;
ALTER TABLE extractions ADD COLUMN word_count integer NOT NULL DEFAULT 0;

-- What a new version changed against the one before it, per cluster (paths added and removed).
ALTER TABLE templates ADD COLUMN changes jsonb;

CREATE TABLE template_health (
  template_id integer NOT NULL REFERENCES templates (id) ON DELETE CASCADE,
  measured_at timestamptz NOT NULL DEFAULT now(),
  pages integer NOT NULL,
  read_alone integer NOT NULL,
  mean_words double precision NOT NULL,
  PRIMARY KEY (template_id, measured_at)
);
