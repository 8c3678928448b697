-- The background images the operator chose for a request. NULL on requests made before the
-- choice existed: those render over every image of their owner, as they always did. Plain ids
-- rather than a foreign key: an image deleted before the render simply drops out of the choice,
-- and the render tells a choice that lost every image from one that never had any.
ALTER TABLE creation_requests ADD COLUMN background_ids integer[] CHECK (cardinality(background_ids) >= 1);
