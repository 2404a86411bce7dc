-- check.lua drives `gymlint lsp` from a headless Neovim 0.7 (TestNeovimEndToEnd):
--
--   GYMLINT_BIN=... GYMLINT_WS=... GYMLINT_OUT=... GYMLINT_SERVER_LOG=... \
--     nvim --headless -u NONE -i NONE -n -c "luafile check.lua"
--
-- It opens resources_servers/echo/app.py of the workspace, waits for the
-- GL101 diagnostic, asks for the code actions at it and for the hover on it
-- (and on the first line, where there is nothing), ignores GL101 through the
-- settings (workspace/didChangeConfiguration, as a user's on_init sends
-- them) and waits for it to go, empties the settings and waits for it to
-- come back, inserts a multiple_workers_unsupported_reason() override after
-- the class line, waits for GL101 to go away and stops the server. Everything it saw goes to
-- GYMLINT_OUT as one JSON object; the Go test makes the assertions. On an
-- error or a timeout the object says so ("error", "timeout") and Neovim exits
-- with status 1; otherwise with 0.
--
-- Written for Neovim 0.7.2: vim.lsp.start_client and buf_attach_client (there
-- is no vim.lsp.start), diagnostic codes in d.code or d.user_data.lsp.code.

local bin = os.getenv("GYMLINT_BIN")
local ws = os.getenv("GYMLINT_WS")
local out = os.getenv("GYMLINT_OUT")
local server_log = os.getenv("GYMLINT_SERVER_LOG")

local WAIT_MS = 30000
local result = { nvim = tostring(vim.version().major) .. "." .. tostring(vim.version().minor) .. "." .. tostring(vim.version().patch) }

local function write_result()
  local f = assert(io.open(out, "w"))
  f:write(vim.fn.json_encode(result))
  f:close()
end

local function finish(ok)
  -- Never let a failure to write leave Neovim running.
  local wrote, err = pcall(write_result)
  if not wrote then
    io.stderr:write("check.lua: cannot write " .. tostring(out) .. ": " .. tostring(err) .. "\n")
    ok = false
  end
  if ok then
    vim.cmd("qa!")
  else
    vim.cmd("cquit 1")
  end
end

local function code_of(d)
  if d.code ~= nil then
    return d.code
  end
  if d.user_data and d.user_data.lsp then
    return d.user_data.lsp.code
  end
  return nil
end

-- snapshot returns the buffer's diagnostics as plain tables for JSON.
local function snapshot(bufnr)
  local list = {}
  for _, d in ipairs(vim.diagnostic.get(bufnr)) do
    local item = {
      lnum = d.lnum,
      col = d.col,
      end_lnum = d.end_lnum,
      end_col = d.end_col,
      code = code_of(d),
      source = d.source,
      severity = d.severity,
      message = d.message,
      related = {},
    }
    local lsp = d.user_data and d.user_data.lsp or {}
    for _, r in ipairs(lsp.relatedInformation or {}) do
      table.insert(item.related, {
        uri = r.location.uri,
        line = r.location.range.start.line,
        character = r.location.range.start.character,
        message = r.message,
      })
    end
    table.insert(list, item)
  end
  table.sort(list, function(a, b)
    if a.lnum ~= b.lnum then
      return a.lnum < b.lnum
    end
    return tostring(a.code) < tostring(b.code)
  end)
  return list
end

local function find_code(bufnr, code)
  for _, d in ipairs(vim.diagnostic.get(bufnr)) do
    if code_of(d) == code then
      return d
    end
  end
  return nil
end

-- fail records why the check stopped, with the diagnostics there are now.
local function fail(kind, what, bufnr)
  result[kind] = what
  if bufnr then
    result.now = snapshot(bufnr)
  end
  finish(false)
end

local function main()
  assert(bin and ws and out and server_log, "set GYMLINT_BIN, GYMLINT_WS, GYMLINT_OUT and GYMLINT_SERVER_LOG")
  -- Neovim's own LSP log (every message at debug); the test prints it
  -- when it fails.
  vim.lsp.set_log_level("debug")
  result.lsp_log = vim.lsp.get_log_path()

  local exited = nil
  local id = vim.lsp.start_client({
    name = "gymlint",
    -- exec keeps the server the client's own process; its log (stderr)
    -- goes to a file the test prints when it fails.
    cmd = { "sh", "-c", 'exec "$0" lsp 2>>"$1"', bin, server_log },
    root_dir = ws,
    on_exit = function(code, signal)
      exited = { code = code, signal = signal }
    end,
  })
  if not id then
    return fail("error", "vim.lsp.start_client returned nil")
  end

  local path = ws .. "/resources_servers/echo/app.py"
  vim.cmd("edit " .. vim.fn.fnameescape(path))
  local bufnr = vim.api.nvim_get_current_buf()
  -- -u NONE has no filetype detection; a user's Neovim would say python,
  -- which the client sends as the languageId.
  vim.bo[bufnr].filetype = "python"
  if not vim.lsp.buf_attach_client(bufnr, id) then
    return fail("error", "vim.lsp.buf_attach_client failed")
  end

  -- 1. The finding on the open buffer.
  local ok = vim.wait(WAIT_MS, function()
    return find_code(bufnr, "GL101") ~= nil or exited ~= nil
  end, 50)
  if exited then
    result.exit = exited
    return fail("error", "the server exited before publishing GL101", bufnr)
  end
  if not ok then
    return fail("timeout", "no GL101 diagnostic within " .. WAIT_MS .. " ms", bufnr)
  end
  result.before = snapshot(bufnr)
  -- How Neovim will send the edit: 2 is incremental. (0.7 has
  -- resolved_capabilities; later versions only server_capabilities.)
  local client = vim.lsp.get_client_by_id(id)
  local sync = client.server_capabilities and client.server_capabilities.textDocumentSync
  if type(sync) == "table" then
    result.change_sync = sync.change
  elseif sync ~= nil then
    result.change_sync = sync
  elseif client.resolved_capabilities then
    result.change_sync = client.resolved_capabilities.text_document_did_change
  end

  -- 2. The code actions at the finding.
  local d = find_code(bufnr, "GL101")
  local lsp_diag = vim.tbl_extend("keep", {
    range = {
      start = { line = d.lnum, character = d.col },
      ["end"] = { line = d.end_lnum, character = d.end_col },
    },
    severity = d.severity,
    message = d.message,
    source = d.source,
    code = code_of(d),
  }, d.user_data and d.user_data.lsp or {})
  local params = {
    textDocument = { uri = vim.uri_from_bufnr(bufnr) },
    range = lsp_diag.range,
    context = { diagnostics = { lsp_diag } },
  }
  local responses, err = vim.lsp.buf_request_sync(bufnr, "textDocument/codeAction", params, 5000)
  if not responses then
    return fail("error", "textDocument/codeAction: " .. tostring(err), bufnr)
  end
  local resp = responses[id]
  if not resp or resp.error then
    return fail("error", "textDocument/codeAction: " .. vim.inspect(resp and resp.error), bufnr)
  end
  result.actions = {}
  for _, a in ipairs(resp.result or {}) do
    table.insert(result.actions, { title = a.title, kind = a.kind or "", has_edit = a.edit ~= nil })
  end

  -- 2b. The hover on the finding (a character into the class name), and
  -- on the first line, where there is none (null).
  local function hover(line, character)
    local hp = { textDocument = { uri = vim.uri_from_bufnr(bufnr) }, position = { line = line, character = character } }
    local rs, herr = vim.lsp.buf_request_sync(bufnr, "textDocument/hover", hp, 5000)
    if not rs then
      return nil, "textDocument/hover: " .. tostring(herr)
    end
    local r = rs[id]
    if not r or r.error then
      return nil, "textDocument/hover: " .. vim.inspect(r and r.error)
    end
    return r.result, nil
  end
  local h, herr = hover(d.lnum, d.col + 2)
  if herr then
    return fail("error", herr, bufnr)
  end
  if h == nil or h == vim.NIL then
    return fail("error", "no hover on GL101", bufnr)
  end
  result.hover = { kind = h.contents.kind, value = h.contents.value }
  if h.range then
    result.hover.range = { h.range.start.line, h.range.start.character, h.range["end"].line, h.range["end"].character }
  end
  local none
  none, herr = hover(0, 0)
  if herr then
    return fail("error", herr, bufnr)
  end
  result.hover_nothing_null = (none == nil or none == vim.NIL)

  -- 2c. The settings: ignore GL101, then no settings. Neovim answers
  -- workspace/configuration from client.config.settings; the change is
  -- announced as a user (or on_init) does.
  local client_now = vim.lsp.get_client_by_id(id)
  local function settle(settings, want_gl101, what)
    client_now.config.settings = settings
    client_now.notify("workspace/didChangeConfiguration", { settings = settings })
    local done = vim.wait(WAIT_MS, function()
      return (find_code(bufnr, "GL101") ~= nil) == want_gl101 or exited ~= nil
    end, 50)
    if exited then
      result.exit = exited
      return false, "the server exited after the settings " .. what
    end
    if not done then
      return false, "GL101 " .. (want_gl101 and "not back" or "still there") .. " " .. WAIT_MS .. " ms after the settings " .. what
    end
    return true, nil
  end
  local sok, serr = settle({ gymlint = { ignore = { "GL101" } } }, false, "ignoring GL101")
  if not sok then
    return fail("timeout", serr, bufnr)
  end
  result.ignored = snapshot(bufnr)
  sok, serr = settle({ gymlint = vim.empty_dict() }, true, "emptied")
  if not sok then
    return fail("timeout", serr, bufnr)
  end

  -- 3. The edit: a refusal override as the class's first method. Neovim
  -- sends it as an incremental didChange (the server asks for those).
  local class_line = d.lnum
  local indent = "    "
  vim.api.nvim_buf_set_lines(bufnr, class_line + 1, class_line + 1, false, {
    indent .. "def multiple_workers_unsupported_reason(self):",
    indent .. indent .. 'return "kept in this process"',
  })
  result.edited = vim.api.nvim_buf_get_lines(bufnr, 0, -1, false)

  ok = vim.wait(WAIT_MS, function()
    return find_code(bufnr, "GL101") == nil or exited ~= nil
  end, 50)
  if exited then
    result.exit = exited
    return fail("error", "the server exited after the edit", bufnr)
  end
  if not ok then
    return fail("timeout", "GL101 still reported " .. WAIT_MS .. " ms after the edit", bufnr)
  end
  result.after = snapshot(bufnr)

  -- 4. shutdown and exit: the server should end by itself, with status 0.
  vim.lsp.stop_client(id)
  if not vim.wait(10000, function()
    return exited ~= nil
  end, 20) then
    return fail("timeout", "the server did not exit within 10 s of stop_client")
  end
  result.exit = exited
  finish(true)
end

local ok, err = xpcall(main, debug.traceback)
if not ok then
  fail("error", "check.lua: " .. tostring(err))
end
