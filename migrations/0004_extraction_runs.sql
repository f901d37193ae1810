-- How many times each page has been extracted: one per body and template version is the goal,
-- and `pnpm bench crawl` reports the average.
ALTER TABLE extractions ADD COLUMN runs integer NOT NULL DEFAULT 1;
