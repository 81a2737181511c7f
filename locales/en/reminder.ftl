reminder-title = Reminder
reminder-due = Due { $when }
reminder-late = Late by { $late }: the bot could not send it on time.
button-done = ✅ Done
button-snooze-10m = 10 min
button-snooze-1h = 1 hour
button-snooze-tomorrow = Tomorrow morning
button-snooze-custom = Other time…
duration-minutes = { $n ->
    [one] { $n } minute
   *[other] { $n } minutes
}
duration-hours = { $n ->
    [one] { $n } hour
   *[other] { $n } hours
}
duration-days = { $n ->
    [one] { $n } day
   *[other] { $n } days
}
