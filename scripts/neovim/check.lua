-- Drives hotfix's language server from Neovim's own LSP client (headless), as a user's editor
-- does: attach to a template, wait for its diagnostics, apply a code action, write what came
-- back. Run by scripts/neovim-check.sh, which checks the results.
-- Environment: HOTFIX (the binary), FILE (the template), OUT (a file for the results).
-- Works with Neovim 0.7 (Debian's) and later: start_client + buf_attach_client.
local hotfix, file, out = vim.env.HOTFIX, vim.env.FILE, vim.env.OUT
local lines = {}
local function say(line) table.insert(lines, line) end
local function finish()
  vim.fn.writefile(lines, out)
  vim.cmd('qa!')
end

local ok, err = pcall(function()
  local client_id = vim.lsp.start_client({
    name = 'hotfix',
    cmd = { hotfix, 'server' },
    root_dir = vim.fn.fnamemodify(file, ':h'),
  })
  assert(client_id, 'the client starts')
  vim.cmd('edit ' .. vim.fn.fnameescape(file))
  local buf = vim.api.nvim_get_current_buf()
  vim.lsp.buf_attach_client(buf, client_id)
  local client = vim.lsp.get_client_by_id(client_id)

  -- The diagnostics of the template as opened.
  assert(vim.wait(20000, function() return #vim.diagnostic.get(buf) > 0 end, 50),
    'diagnostics arrive')
  local diagnostics = vim.diagnostic.get(buf)
  table.sort(diagnostics, function(a, b) return a.lnum < b.lnum end)
  local target
  for _, d in ipairs(diagnostics) do
    say(string.format('diagnostic %s %d:%d %s', d.code or d.user_data.lsp.code, d.lnum + 1,
      d.col + 1, vim.split(d.message, '\n')[1]))
    if (d.code or d.user_data.lsp.code) == 'H603' then target = d end
  end
  assert(target, 'an H603 finding')

  -- The code actions at it; the fix applied as Neovim applies a workspace edit.
  -- As the protocol has it; Neovim keeps range and message in the diagnostic itself.
  local lsp_diagnostic = {
    range = {
      start = { line = target.lnum, character = target.col },
      ['end'] = { line = target.end_lnum, character = target.end_col },
    },
    message = target.message,
    severity = target.severity,
    code = target.user_data.lsp.code,
    source = target.source,
  }
  local params = {
    textDocument = { uri = vim.uri_from_bufnr(buf) },
    range = lsp_diagnostic.range,
    context = { diagnostics = { lsp_diagnostic } },
  }
  local response, failure = client.request_sync('textDocument/codeAction', params, 10000, buf)
  assert(response and response.result,
    'code actions answer: ' .. vim.inspect(response) .. ' ' .. tostring(failure))
  local chosen
  for _, action in ipairs(response.result) do
    say('action ' .. action.title)
    if action.title:find('propertes', 1, true) then chosen = action end
  end
  assert(chosen, 'a fix for H603')
  vim.lsp.util.apply_workspace_edit(chosen.edit, client.offset_encoding)
  for _, line in ipairs(vim.api.nvim_buf_get_lines(buf, 0, -1, false)) do
    say('text ' .. line)
  end

  -- After the edit, the server lints the new text: the H603 finding is gone.
  assert(vim.wait(20000, function()
    for _, d in ipairs(vim.diagnostic.get(buf)) do
      if (d.code or d.user_data.lsp.code) == 'H603' then return false end
    end
    return true
  end, 50), 'the fixed finding is cleared')
  say('cleared H603')
  client.stop()
end)
if not ok then say('error ' .. tostring(err)) end
finish()
