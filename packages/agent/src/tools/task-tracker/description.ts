/** What the LLM reads about `task_tracker`. */
export const DESCRIPTION = `Keeps a structured task list for the work at hand, so that progress stays visible to you and to the user.

Commands:
* \`view\` shows the current list.
* \`plan\` replaces the whole list with \`task_list\`: send every task you want to keep, with its current status. View the list first when you are unsure what it holds.

Each task has a \`title\` (short and actionable), optional \`notes\`, and a \`status\`:
- \`todo\`: not started
- \`in_progress\`: being worked on now (keep ONE task in progress at a time)
- \`done\`: finished completely

When to use it:
1. Work with several steps or parts, done one after another or side by side
2. Complex changes that touch several components and need planning
3. The user asks for a plan or a task list, or gives several requirements at once
4. At the start of a larger job, to capture the requirements
5. Before starting a task (mark it in_progress) and right after finishing it (mark it done, and add any follow-up work you discovered)

When not to use it: a single small change, a quick question, or anything done in a couple of steps. Then just do the work.

How to keep it honest:
- Update statuses as you go; mark a task done as soon as it is finished, not in batches.
- Mark a task done only when it is fully achieved: not while tests fail, the implementation is partial, or errors remain. Keep it in_progress and add tasks for what blocks it.
- Remove tasks that no longer apply.

Example: asked to "add login and logout with input validation and error handling", a good plan is
1. Design the authentication endpoints and data model
2. Implement login and logout with sessions
3. Validate input on the client and the server
4. Handle and report errors
5. Write and run the tests`;
