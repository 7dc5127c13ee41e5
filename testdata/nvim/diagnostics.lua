-- Writes the diagnostics Neovim holds for the current buffer once the
-- language servers attached to it have published some, a line each
-- (1-based line:column, severity, code; sorted), to the file CELINT_E2E_OUT, and
-- exits: 0 when some came within 20 s, 1 otherwise. cmd/celint's TestNeovim
-- runs it after the Neovim config of docs/editors.md.
local out = assert(os.getenv('CELINT_E2E_OUT'), 'CELINT_E2E_OUT is not set')
local buf = vim.api.nvim_get_current_buf()
local ok = vim.wait(20000, function()
  return #vim.diagnostic.get(buf) > 0
end, 20)
local lines = { string.format('filetype %s, %d clients', vim.bo[buf].filetype, #vim.lsp.buf_get_clients(buf)) }
local diags = vim.diagnostic.get(buf)
for _, d in ipairs(diags) do
  d.code = tostring(d.code or (d.user_data and d.user_data.lsp and d.user_data.lsp.code))
end
table.sort(diags, function(a, b)
  if a.lnum ~= b.lnum then
    return a.lnum < b.lnum
  end
  if a.col ~= b.col then
    return a.col < b.col
  end
  return a.code < b.code
end)
for _, d in ipairs(diags) do
  lines[#lines + 1] = string.format('%d:%d %s %s', d.lnum + 1, d.col + 1, vim.diagnostic.severity[d.severity], d.code)
end
local f = assert(io.open(out, 'w'))
f:write(table.concat(lines, '\n'), '\n')
f:close()
for _, client in pairs(vim.lsp.get_active_clients()) do
  client.stop(true)
end
vim.cmd(ok and 'qall!' or 'cquit 1')
