-- +goose Up
-- Entry types are `income` and `expense`, lower case, as SPEC.md writes them
-- (DECISIONS.md section 9). Stored rows are converted, and every table that
-- holds an entry type refuses any other value from now on.
UPDATE account_entry    SET type = lower(type) WHERE type <> lower(type);
UPDATE account_category SET type = lower(type) WHERE type <> lower(type);
UPDATE default_category SET type = lower(type) WHERE type <> lower(type);
UPDATE recurring        SET type = lower(type) WHERE type <> lower(type);
UPDATE quick_entry      SET type = lower(type) WHERE type <> lower(type);

ALTER TABLE account_entry    ADD CONSTRAINT account_entry_type_check    CHECK (type IN ('income', 'expense'));
ALTER TABLE account_category ADD CONSTRAINT account_category_type_check CHECK (type IN ('income', 'expense'));
ALTER TABLE default_category ADD CONSTRAINT default_category_type_check CHECK (type IN ('income', 'expense'));
ALTER TABLE recurring        ADD CONSTRAINT recurring_type_check        CHECK (type IN ('income', 'expense'));
ALTER TABLE quick_entry      ADD CONSTRAINT quick_entry_type_check      CHECK (type IN ('income', 'expense'));

-- +goose Down
ALTER TABLE account_entry    DROP CONSTRAINT account_entry_type_check;
ALTER TABLE account_category DROP CONSTRAINT account_category_type_check;
ALTER TABLE default_category DROP CONSTRAINT default_category_type_check;
ALTER TABLE recurring        DROP CONSTRAINT recurring_type_check;
ALTER TABLE quick_entry      DROP CONSTRAINT quick_entry_type_check;

UPDATE account_entry    SET type = upper(type);
UPDATE account_category SET type = upper(type);
UPDATE default_category SET type = upper(type);
UPDATE recurring        SET type = upper(type);
UPDATE quick_entry      SET type = upper(type);
