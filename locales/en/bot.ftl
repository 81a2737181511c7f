cmd-start = Start and choose your time zone
cmd-add = Add a task: /add text time
cmd-list = Your upcoming tasks
cmd-done = Finish a task: /done number
cmd-delete = Delete a task: /delete number
cmd-settings = Default reminder lead time
cmd-lang = Change the language
cmd-tz = Change the time zone
cmd-help = What I can do
start-welcome = Hi! I remind you of your tasks. Just write what and when.
tz-ask = Which time zone are you in? Tap a button, or type a city, an IANA name or a UTC offset.
tz-example = Tashkent
tz-set = Time zone: { $tz }. Your local time now: { $now }.
tz-unknown = I don't know this time zone. Type a city, an IANA name or a UTC offset.
tz-offset-range = No place on Earth uses this UTC offset; offsets go from -12 to +14.
lang-ask = Choose a language:
lang-set = I will speak English now.
lang-unknown = I don't know this language. I speak English, Russian and Uzbek.
help-title = How to use me
help-add = Write a task with its time, before or after the text:
help-lead = Remind ahead of the deadline:
help-repeat = Recurring tasks:
help-commands = /list shows your tasks; /done 12 and /delete 12 finish or delete task 12; /cancel closes a question I asked; /settings sets a default lead time; /tz and /lang change the time zone and language.
add-example = pay rent tomorrow 9:00
lead-example = meeting friday 15:00 remind 30 min before
repeat-example = every monday 10:00 standup
when-example = tomorrow 9:00
settings-current = New tasks are reminded: { $lead }.
settings-usage = To change it, send /settings with a lead time, or /settings 0 to be reminded at the deadline.
settings-example = /settings 30 min
settings-set = From now on new tasks are reminded: { $lead }.
settings-bad = I don't understand this lead time.
task-saved = Task saved
task-changed = Task changed
task-due = Due: { $when }
task-remind = Reminder: { $when }
task-repeats = Repeats: { $rule }
task-paused = Paused: no reminders until you resume it (/resume { $id }).
repeat-daily = every day
repeat-weekdays = on weekdays
repeat-monthly = every month on day { $day }
button-undo = ↩️ Undo
button-change-time = 🕒 Change time
button-open-app = 📱 Open app
button-edit = ✏️ Edit
button-delete = 🗑 Delete
button-snooze = 💤 Snooze
button-prev = ◀️ Back
button-next = Next ▶️
ask-when = When should I remind you of this task?
ask-snooze = When should I remind you again?
snooze-example = in 30 min
ask-edit = What should change? Send a time, a day or a new text: the rest stays as it is.
list-title = { $count ->
    [one] You have { $count } open task
   *[other] You have { $count } open tasks
}
list-empty = You have no open tasks. Write one with its time to add it.
list-page = Page { $page } of { $pages }
done-ok = Done: { $text }
done-next = Done. Next time: { $when }
deleted = Deleted: { $text }
undone = Undone, the task is removed: { $text }
snoozed = I will remind you again: { $when }.
callback-done = Done ✅
callback-deleted = Deleted
callback-snoozed = Snoozed
not-found = Task not found. /list shows your tasks.
stale-button = This button no longer works.
not-allowed-task = Only the task's creator or a group admin can change it.
not-allowed-settings = Only a group admin can change the group's settings.
id-usage = Which task? Send its number from /list.
id-example-done = /done 12
id-example-delete = /delete 12
rate-limited = Too many messages at once. Please wait a minute and try again.
too-many-tasks = { $max ->
    [one] You already have { $max } open task, the most allowed. Finish or delete one first (/list).
   *[other] You already have { $max } open tasks, the most allowed. Finish or delete some first (/list).
}
err-empty = The message is empty. Write a task and its time.
err-too-long = The message is too long: at most { $max } characters.
err-text-too-long = The task text is too long: { $len } characters, at most { $max }.
err-no-text = What should I remind you of? Write the task together with its time.
err-no-time = I didn't find a time in this.
err-invalid-time = { $time } is not a time of day: hours go from 0 to 23 and minutes from 0 to 59.
err-invalid-date = { $date } is not a date in the calendar.
err-invalid-day = No month has a day { $day }.
err-past = That time has already passed: { $when }.
err-too-far = I only accept dates until the end of { $year }.
err-lead-too-long = A reminder can come at most { $days } days before its deadline.
err-repeat-too-often = I repeat a task every { $min } minutes at the most often. To be reminded again and again until it is done, add "until done" to the task.
err-ends-before-first = This repeat ends before it would first come ({ $when }). Send it with a later end.
err-internal = Something went wrong on my side. Nothing was lost; please try again.
example-label = For example:
unknown-command = I don't know this command. /help lists what I can do.
lang-example = /lang ru
cmd-cancel = Cancel the question I asked
edit-example = friday 19:00
ask-when-still = I saved that as a task of its own. When should I remind you of this one?
task-remind-clamped = Reminder: { $when }, not { $lead }: that would already be in the past.
task-remind-sent = Reminder: already sent
task-overdue = Its time has passed, so no reminder will come. Tap Change time to get one.
undo-edit-title = Change undone
undo-done-title = Task reopened
undo-delete-title = Task restored
undo-used = This was already undone.
undo-outdated = This can no longer be undone: the task has changed since.
callback-undone = Undone
callback-cancelled = Cancelled
button-cancel = ✖️ Cancel
cancel-nothing = There is no open question to cancel.
cancel-dropped = Cancelled: “{ $text }” is not saved.
cancel-edit = Cancelled: task #{ $id } stays as it was.
cancel-snooze = Cancelled: the reminders of task #{ $id } stay as they were.
cancel-zone = Cancelled: the time zone stays as it was.
cancel-zone-none = Cancelled. I need your time zone before I can save tasks: send /tz when you are ready.
list-overdue = { $when }, overdue
list-remind = reminder { $when }
list-paused = paused
help-relative = Or in a while:
relative-example = in 2 hours call mom
help-buttons = Under each task: ↩️ Undo takes back what you just did (also Done and Delete); 🕒 Change time asks for a new time, day or text and keeps the rest. Under a reminder: 💤 snooze it for 10 minutes, an hour, until tomorrow morning or to another time.
cmd-agenda = The day's tasks every morning: /agenda 8:00
agenda-title = { $day }: today's tasks
agenda-empty = Nothing is due today.
agenda-more = { $count ->
    [one] …and { $count } more task: /list
   *[other] …and { $count } more tasks: /list
}
agenda-current = The morning agenda comes every day at { $time }; time zone { $zone }. /agenda off turns it off.
agenda-off-state = The morning agenda is off.
agenda-usage = Send /agenda 8:00 to get the day's tasks every morning at 8:00.
agenda-set = Every day at { $time } I will send you the day's tasks, or a short note when there are none. The first one: { $when }.
agenda-turned-off = Done: the morning agenda is off.
agenda-bad = I don't understand this time. Send a time of day, or off.
agenda-example = /agenda 8:00
agenda-needs-zone = To send the agenda in your morning I need your time zone; then send /agenda again.
task-nag = Until done: again every { $every } after each reminder, { $max ->
    [one] once
   *[other] at most { $max } times
}.
nag-on = I will remind you again every { $every } until it is done, { $max ->
    [one] once
   *[other] at most { $max } times
}.
callback-nag = I will keep reminding you
err-nag-interval = I can repeat a reminder every { $min } at the most often and every { $max } at the least often.
nag-example = call mom in 1 hour every 10 min until done
quote-hint = To be reminded of this, reply to it with a time.
quote-example = in 2 hours
repeat-weekly-one = every { $code ->
    [mon] Monday
    [tue] Tuesday
    [wed] Wednesday
    [thu] Thursday
    [fri] Friday
    [sat] Saturday
   *[sun] Sunday
}
repeat-day-in-list = { $code ->
    [mon] Monday
    [tue] Tuesday
    [wed] Wednesday
    [thu] Thursday
    [fri] Friday
    [sat] Saturday
   *[sun] Sunday
}
repeat-and = and
repeat-weekly-many = every { $days }
repeat-every-weeks = every { $n } weeks on { $days }
repeat-hourly = every hour
repeat-every-hours = every { $n } hours
repeat-every-days = every { $n } days
repeat-every-months = every { $n } months on day { $day }
repeat-monthly-last = every month on the last day
repeat-every-months-last = every { $n } months on the last day
repeat-every-minutes = every { $n } minutes
repeat-weekday-of-month = the { $week ->
    [first] first
    [second] second
    [third] third
    [fourth] fourth
   *[last] last
} { $code ->
    [mon] Monday
    [tue] Tuesday
    [wed] Wednesday
    [thu] Thursday
    [fri] Friday
    [sat] Saturday
   *[sun] Sunday
}
repeat-monthly-weekday = every month on { $day }
repeat-every-months-weekday = every { $n } months on { $day }
repeat-month-name = { $code ->
    [jan] January
    [feb] February
    [mar] March
    [apr] April
    [may] May
    [jun] June
    [jul] July
    [aug] August
    [sep] September
    [oct] October
    [nov] November
   *[dec] December
}
repeat-yearly = every year on { $day } { $month }
repeat-every-years = every { $n } years on { $day } { $month }
# Zones and first contact, /settings' buttons, /export (issue 14).
cmd-export = Your tasks as calendar and table files
cmd-pause = Pause a repeating task: /pause 12
cmd-resume = Resume a paused repeat: /resume 12
tz-share-location = Or share your location, and I will set the time zone of that place.
button-share-location = 📍 Share location
tz-current = Your time zone: { $tz }. Local time: { $now }.
tz-location-bad = I can't find a time zone for this place.
first-task-hint = Now write your first task with its time, for example: buy bread tomorrow 18:00
zone-tashkent = Tashkent
zone-samarkand = Samarkand
zone-moscow = Moscow
zone-almaty = Almaty
zone-berlin = Berlin
zone-london = London
zone-new-york = New York
zone-utc = UTC
button-lead-none = At the deadline
settings-saved = Saved ✅
export-empty = You have no open tasks to export.
export-calendar = { $count ->
    [one] Your { $count } open task for a calendar: open the file to add it.
   *[other] Your { $count } open tasks for a calendar: open the file to add them.
}
export-capped = These are the first { $max } of your { $count } tasks, the soonest first.
export-table = The same tasks as a table, for a spreadsheet.
# What was assumed reading a time, and time words left in the text (issue 14).
assumed-hour = I took { $typed } as { $chosen }. If you meant { $other }, tap Change time and send { $other }.
assumed-time-not-said = No exact time was given, so I took { $chosen }.
assumed-next-weekday = Next week's, not this week's: { $date }.
assumed-next-week = Next week with no day is its Monday: { $date }.
assumed-next-month = Next month with no day is its 1st: { $date }.
assumed-week-end = The end of a week is its Friday: { $date }.
assumed-coming-night = I took it as the coming night: { $date }.
assumed-night-after = That is the night after the day you named: { $date }.
assumed-tomorrow-after-midnight = It is past midnight, so I took “tomorrow” as { $date }.
assumed-day-after-tomorrow-after-midnight = It is past midnight, so I took “the day after tomorrow” as { $date }.
assumed-tonight-after-midnight = It is past midnight, so I took “tonight” as this night: { $date }.
assumed-typo = I read “{ $typed }” as “{ $read }”.
assumed-weekday-of-date = You said { $said }, but the date is { $date }: I kept the date.
assumed-clock-skipped = There is no { $said } on { $date }: the clocks go forward then. I took { $chosen }.
assumed-minutes-unsaid = I took “{ $minutes }” as { $minutes } minutes from now.
assumed-in-a-day = I took “через день” as { $date }. To repeat every other day, tap Change time and send: every 2 days at { $time }
assumed-second-time = A second task with the same text will remind { $when }.
assumed-other-zone = { $theirs } { $offset } is { $yours } your time.
unplaced-repeat = I could not make “{ $words }” a repeat, so the task is saved without one. To make it repeat, tap Change time and send a repeat, for example: every day 9:00
unplaced-kept = I kept “{ $words }” in the task's text, not in its time.
unplaced-repeat-loose = I could not make “{ $words }” a repeat.
unplaced-second-time = A task has one time: I used the first and left out “{ $words }”. To be reminded then too, send it as a task of its own.
edit-repeat-unknown = I could not make “{ $words }” a repeat, so the task stays as it was. Send a time, a day or a repeat.
repeat-edit-example = every day 9:00
# /help on nagging, reminders about a message, guesses, /agenda, /export and a location (issue 14).
help-repeat-more = Also: every tue and thu, every 2 days, every 3 hours, on the last day of the month, every year on 14 Feb.
help-nag = Remind again and again until it is done (or tap 🔁 Keep reminding under a reminder):
help-quote = Reply to any message with a time, and I will remind you of it:
help-assumed = When I have to guess (3 as 15:00, a typo), I say so under the task: ↩️ Undo or 🕒 Change time puts it right.
help-more-commands = /agenda 8:00 sends the day's tasks every morning; /export gives your tasks as calendar and table files; /calendar gives a link your calendar app subscribes to; share your location (📎 → Location) to set the time zone.
# Reminders about a forwarded message (issue 14).
ask-quote-when = When should I remind you of this message?
ask-quote-when-still = I saved that as a task of its own. When should I remind you of the forwarded message?
forward-needs-zone = To remind you of a message I need your time zone first; then forward the message again.
# Questions and permissions in groups (issue 25).
cancel-not-yours = This question is for someone else: only they can cancel it.
permission-unchecked = I could not check with Telegram whether you may do this in this group, so nothing was changed. Please try again in a minute.
# Series that end or count from Done, pausing a repeat, cards that stay true (issue 24).
repeat-from-done = { $rule }, counted from each Done
repeat-count = { $rule }, { $n ->
    [one] once in all
   *[other] { $n } times in all
}
repeat-until = { $rule }, until { $day } { $month } { $year }
done-series-ended = Done: { $text }. That was the last one: the series has ended.
repeat-paused = ⏸ Paused: { $text }. No reminders until you resume it (/resume and its number, or the button).
repeat-already-paused = This repeat is paused already.
repeat-resumed = ▶️ Resumed: { $text }. Next time: { $when }
repeat-not-paused = This repeat is not paused.
repeat-ended-paused = { $text }: its repeat ended while it was paused, so no more reminders will come.
repeat-not-repeating = Only a repeating task can be paused; this one comes once.
button-resume = ▶️ Resume
callback-paused = Paused ⏸
callback-resumed = Resumed ▶️
id-example-pause = /pause 12
id-example-resume = /resume 12
# The chat reads what people mean (issue 24).
tz-task-kept = I'll keep “{ $text }” and save it as soon as I know your time zone.
tz-task-waits-already = “{ $waiting }” is already waiting for your time zone, so I did not save “{ $text }”: send it again once the zone is set.
task-saved-before-zone = ✅ Task saved: { $text }. Reminder in { $in }.
assumed-hour-choice = I took { $typed } as { $chosen }. If you meant { $other }, tap { $other } below.
lang-written-offer = You write in Uzbek in Cyrillic, so I answer in it. Another script or language? Tap it:
help-forward = Forward me any message (or share it to me) and tell me when: I will remind you of it, quoting it.
csv-id = id
csv-text = task
csv-due-local = deadline (local time)
csv-zone = time zone
csv-due-utc = deadline (UTC)
csv-repeat = repeats
csv-repeat-rule = repeat rule (RRULE)
csv-lead-minutes = remind before (minutes)
# /export's limits (issue 25).
export-wait = You asked for your files a moment ago; they are on their way. You can ask again in { $seconds } s.
export-too-large = { $file } would be { $size } KB, more than the { $max } KB the bot may send. Finish or delete some tasks, then /export again.
# /calendar: a calendar feed to subscribe to (issue 27).
cmd-calendar = Subscribe to your tasks in a calendar app
calendar-title = 📅 Your tasks in your calendar
calendar-subscribe = Apple Calendar, Outlook or Thunderbird: open or copy this link to subscribe:
calendar-google = Google Calendar: Other calendars → From URL, and paste this link:
calendar-keep-secret = The calendar follows your open tasks by itself (Google's every few hours). Anyone with the link sees your tasks, so keep it to yourself: /calendar new gives a new link, and the old one stops working at once.
calendar-exists = You already have a calendar link. I keep only a fingerprint of it, so I cannot show it again: tap New link (or send /calendar new) for a new one; the old one stops working at once.
calendar-usage = /calendar gives your calendar link; /calendar new replaces it with a new one.
calendar-off = The calendar link is not available on this bot: its operator has not set the bot's public address (PUBLIC_URL).
button-calendar-new = 🔄 New link
callback-calendar-new = New link sent
calendar-feed-name = Reminders
