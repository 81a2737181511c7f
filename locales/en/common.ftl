# Shared by the chat and the reminders.
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
