CREATE TABLE IF NOT EXISTS waitingroom_values (
  room       text        NOT NULL,
  scope      text        NOT NULL,
  publisher  text        NOT NULL,
  payload    bytea       NOT NULL,
  expires_at timestamptz NOT NULL,
  PRIMARY KEY (room, scope, publisher)
) WITH (fillfactor = 50);
