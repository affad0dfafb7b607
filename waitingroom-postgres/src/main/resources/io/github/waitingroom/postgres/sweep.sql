DELETE FROM waitingroom_values AS t
USING (
  SELECT o.room, o.scope, o.publisher
  FROM waitingroom_values AS o
  WHERE o.expires_at <= clock_timestamp()
     OR octet_length(o.payload) > {{maxValueBytes}}
     OR octet_length(o.publisher) > {{maxNameBytes}}
  LIMIT 1000
  FOR UPDATE OF o SKIP LOCKED
) AS d
WHERE t.room = d.room AND t.scope = d.scope AND t.publisher = d.publisher
