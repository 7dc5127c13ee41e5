-- An end-to-end run of celint's language server with Neovim's own LSP
-- client (Neovim 0.7 or later), for cmd/celint's TestNeovim:
--
--   CELINT_LSP_CMD=/path/to/celint CELINT_E2E_FILE=/tmp/x/faulty.yaml \
--   CELINT_E2E_OUT=/tmp/x/transcript.txt \
--   nvim --headless --clean -u NONE -c 'luafile testdata/nvim/e2e.lua'
--
-- It starts `celint lsp`, opens the file, waits for the diagnostics, asks
-- for hover and code actions on the duplicate tag, applies the fix's
-- workspace edit, waits for the diagnostics of the edited text and stops
-- the server. Each step writes lines to the transcript; positions there are
-- 1-based line:column, as celint check prints them. Neovim exits 0 when the
-- script ran to its end, 1 otherwise (the transcript's last line says why).

local timeout = 20000 -- ms, for each wait
local dup_code = 'mcpdesc.tags.references/duplicate'

local out = assert(os.getenv('CELINT_E2E_OUT'), 'CELINT_E2E_OUT is not set')
local lines = {}

local function say(fmt, ...)
  lines[#lines + 1] = string.format(fmt, ...)
end

local function flush()
  local f = assert(io.open(out, 'w'))
  f:write(table.concat(lines, '\n'), '\n')
  f:close()
end

local function wait(what, cond)
  if not vim.wait(timeout, cond, 20) then
    error(string.format('timed out after %d ms waiting for %s', timeout, what), 0)
  end
end

-- code returns a diagnostic's code, from the top-level field Neovim 0.7
-- added or from the LSP diagnostic it keeps.
local function code(d)
  if d.code ~= nil then
    return d.code
  end
  return d.user_data and d.user_data.lsp and d.user_data.lsp.code
end

-- list writes the diagnostics Neovim holds for the buffer, sorted, a line
-- each, and then the quickfix list they make, as :clist shows it.
local function list(buf, title)
  local diags = vim.diagnostic.get(buf)
  table.sort(diags, function(a, b)
    if a.lnum ~= b.lnum then
      return a.lnum < b.lnum
    end
    if a.col ~= b.col then
      return a.col < b.col
    end
    return tostring(code(a)) < tostring(code(b))
  end)
  say('%s: %d diagnostics', title, #diags)
  for _, d in ipairs(diags) do
    say('%d:%d %s %s %s', d.lnum + 1, d.col + 1, vim.diagnostic.severity[d.severity], tostring(code(d)), d.message)
  end
  vim.diagnostic.setqflist({ open = false, title = title })
  say(':clist')
  for _, l in ipairs(vim.split(vim.api.nvim_exec('clist', true), '\n', { trimempty = true })) do
    say('%s', l)
  end
  return diags
end

local function main()
  local cmd = assert(os.getenv('CELINT_LSP_CMD'), 'CELINT_LSP_CMD is not set')
  local file = assert(os.getenv('CELINT_E2E_FILE'), 'CELINT_E2E_FILE is not set')
  local v = vim.version()
  say('nvim %d.%d.%d', v.major, v.minor, v.patch)

  -- The server's publishDiagnostics, as they come: Neovim's own handler
  -- shows them; the last one of each document is kept for the code action
  -- request, which takes the LSP diagnostics it is about.
  local published = {}
  local handlers = {
    ['textDocument/publishDiagnostics'] = function(err, result, ctx, config)
      published[result.uri] = result
      return vim.lsp.handlers['textDocument/publishDiagnostics'](err, result, ctx, config)
    end,
  }
  local exit_code
  local client_id = vim.lsp.start_client({
    name = 'celint',
    cmd = { cmd, 'lsp' },
    root_dir = vim.fn.fnamemodify(file, ':p:h'),
    handlers = handlers,
    on_exit = function(c)
      exit_code = c
    end,
  })
  assert(client_id, 'vim.lsp.start_client failed')

  vim.cmd('edit ' .. vim.fn.fnameescape(file))
  local buf = vim.api.nvim_get_current_buf()
  vim.bo[buf].filetype = 'yaml'
  local uri = vim.uri_from_bufnr(buf)
  assert(vim.lsp.buf_attach_client(buf, client_id), 'vim.lsp.buf_attach_client failed')

  local client
  wait('the server to initialize', function()
    client = vim.lsp.get_client_by_id(client_id)
    return client ~= nil and client.initialized
  end)
  say('server initialized, offset encoding %s', client.offset_encoding)

  wait('diagnostics', function()
    return published[uri] ~= nil
  end)
  list(buf, 'before the fix')

  local dup
  for _, d in ipairs(published[uri].diagnostics) do
    if d.code == dup_code then
      dup = d
    end
  end
  assert(dup, 'no ' .. dup_code .. ' diagnostic')

  local hover = vim.lsp.buf_request_sync(buf, 'textDocument/hover', {
    textDocument = { uri = uri },
    position = dup.range.start,
  }, timeout)
  local h = hover and hover[client_id]
  assert(h and h.result, 'no hover: ' .. vim.inspect(h and h.err))
  local contents = h.result.contents
  say('hover at %d:%d: %s', dup.range.start.line + 1, dup.range.start.character + 1,
    vim.split(contents.value or tostring(contents), '\n')[1])

  local answers = vim.lsp.buf_request_sync(buf, 'textDocument/codeAction', {
    textDocument = { uri = uri },
    range = dup.range,
    context = { diagnostics = { dup } },
  }, timeout)
  local a = answers and answers[client_id]
  assert(a and a.result, 'no code actions: ' .. vim.inspect(a and a.err))
  local fix
  for _, action in ipairs(a.result) do
    say('code action: %s (%s)', action.title, tostring(action.kind))
    if fix == nil and action.edit and vim.startswith(action.title, 'Fix ') then
      fix = action
    end
  end
  assert(fix, 'no fix among the code actions')

  vim.lsp.util.apply_workspace_edit(fix.edit, client.offset_encoding)
  local version = vim.lsp.util.buf_versions[buf]
  say('applied: %s', fix.title)
  say('line 10 now: %s', vim.api.nvim_buf_get_lines(buf, 9, 10, true)[1])

  wait('the diagnostics of the edited text', function()
    local p = published[uri]
    return p.version ~= nil and p.version >= version
  end)
  list(buf, 'after the fix')
  vim.cmd('write')

  -- A graceful stop: shutdown, then exit. A server still running after
  -- that is told apart in the transcript, and stopped with SIGTERM.
  client.stop()
  if vim.wait(5000, function()
    return exit_code ~= nil
  end, 20) then
    say('server exited with code %d after shutdown and exit', exit_code)
  else
    say('server still running 5 s after shutdown and exit: stopped with SIGTERM')
    client.stop(true)
    wait('the server to end', function()
      return exit_code ~= nil
    end)
  end
end

local ok, err = pcall(main)
if ok then
  say('OK')
  flush()
  vim.cmd('qall!')
else
  say('FAILED: %s', tostring(err))
  flush()
  vim.cmd('cquit 1')
end
