-- The file name the operator uploaded, so a request's row is recognisable by more than its UUID.
ALTER TABLE creation_requests ADD COLUMN source_name text CHECK (char_length(source_name) <= 255);
