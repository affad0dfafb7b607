-- Behaves like a browser with one admitted user per wrk thread: keeps the cookie the server sets
-- (the waiting room's ticket, or the baseline's session id) and sends it with every request.
-- Used for every variant, so that all pay the same scripting cost.
local cookie = nil

request = function()
  if cookie then
    return wrk.format("GET", nil, { ["Cookie"] = cookie })
  end
  return wrk.format("GET")
end

response = function(status, headers, body)
  local c = headers["Set-Cookie"] or headers["set-cookie"]
  if c then
    cookie = c:match("^[^;]+")
  end
end
