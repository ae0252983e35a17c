-- 0004 (PostgreSQL): the same statements as sqlite/0004_derived_life_states.sql. Dead and
-- incoherent follow from the wounds: a character is dead while it holds a fatal wound
-- on the physical track (the wound that went beyond the top, fatal = 1), incoherent while it holds
-- one on the mental track; the two stored flags go. Where a flag and the wounds disagreed (an import
-- before the bot checked them could store that), the flag said what the character was: it is kept.

-- A fatal wound of a character its flag did not call dead (incoherent): a wound that no longer counts.
UPDATE wounds SET fatal = 0
WHERE fatal = 1 AND (
    (track = 'physical' AND character_id IN (SELECT id FROM characters WHERE dead = 0))
    OR (track = 'mental' AND character_id IN (SELECT id FROM characters WHERE incoherent = 0))
);

-- A flag without its fatal wound: the wound that made it, a critical wound (psychosis) beyond the top
-- of its track, as a killing blow is recorded, dated when the character was created.
INSERT INTO wounds (character_id, track, inflicted_severity, current_severity, fatal, note, inflicted_by,
    inflicted_at)
SELECT c.id, 'physical', 2, NULL, 1, '', NULL, c.created_at FROM characters c
WHERE c.dead = 1 AND NOT EXISTS (
    SELECT 1 FROM wounds w WHERE w.character_id = c.id AND w.track = 'physical' AND w.fatal = 1
);
INSERT INTO wounds (character_id, track, inflicted_severity, current_severity, fatal, note, inflicted_by,
    inflicted_at)
SELECT c.id, 'mental', 2, NULL, 1, '', NULL, c.created_at FROM characters c
WHERE c.incoherent = 1 AND NOT EXISTS (
    SELECT 1 FROM wounds w WHERE w.character_id = c.id AND w.track = 'mental' AND w.fatal = 1
);

ALTER TABLE characters DROP COLUMN dead;
ALTER TABLE characters DROP COLUMN incoherent;
