-- wrk script of Benchmarks/serve-load.sh: each wrk thread requests its share of the tile list
-- (TILES: a file of "z x y" lines; thread k of n takes lines k, k+n, k+2n, ...), once each, and
-- stops when as many answers as its share have come (writing DONE_DIR/done-<thread>). A response counts as an error unless it is 200 with a PNG
-- signature. done() prints one "result" line for the harness: requests, errors, latency
-- percentiles (ms).
local tiles_path = os.getenv("TILES")
local style = os.getenv("STYLE_ID") or "world"
local threads = {}
local counter = 0

function setup(thread)
  thread:set("id", counter)
  counter = counter + 1
  table.insert(threads, thread)
end

function init(args)
  local n = tonumber(os.getenv("WRK_THREADS"))
  paths = {}
  local i = 0
  for line in io.lines(tiles_path) do
    if i % n == id then
      local z, x, y = line:match("(%d+) (%d+) (%d+)")
      paths[#paths + 1] = "/styles/" .. style .. "/" .. z .. "/" .. x .. "/" .. y .. ".png"
    end
    i = i + 1
  end
  share = #paths
  sent = 0
  answered = 0
  errors = 0
end

function request()
  sent = sent + 1
  -- Past this thread's share, its other connections repeat its first tile until the share is
  -- answered and the thread stops (at most connections − 1 extra renders per thread, at the end).
  return wrk.format("GET", paths[sent <= #paths and sent or 1])
end

function response(status, headers, body)
  answered = answered + 1
  if answered <= share and (status ~= 200 or body:sub(1, 8) ~= "\137PNG\r\n\26\n") then
    errors = errors + 1
  end
  if answered == share then
    -- wrk itself runs for its -d duration: the harness sends SIGINT once every thread has
    -- written its file here (and takes the wall clock at that moment).
    local f = io.open(os.getenv("DONE_DIR") .. "/done-" .. id, "w")
    f:close()
    wrk.thread:stop()
  end
end

function done(summary, latency, requests)
  local errs = 0
  local answered_total = 0
  for _, t in ipairs(threads) do
    errs = errs + t:get("errors")
    answered_total = answered_total + math.min(t:get("answered"), t:get("share"))
  end
  -- Socket errors and timeouts (non-200 answers are counted above).
  errs = errs + summary.errors.connect + summary.errors.read + summary.errors.write
    + summary.errors.timeout
  io.write(string.format("result %d %d %.3f %.3f %.3f %.3f %.6f\n", answered_total, errs,
    latency:percentile(50) / 1000, latency:percentile(95) / 1000, latency:percentile(99) / 1000,
    latency.max / 1000, summary.duration / 1e6))
end
