# Dates, times and durations (src/i18n/dates.rs), shared by the chat and the reminders. Plain
# text. $time is the 24-hour clock ("09:00"); $day and $year are numbers; $weekday and $month are
# the names below.
date-today = today at { $time }
date-tomorrow = tomorrow at { $time }
date-yesterday = yesterday at { $time }
# Another day of the current year: Tue 1 Dec, 12:37
date-this-year = { $weekday } { $day } { $month }, { $time }
# A day of another year: Fri 1 Jan 2027, 09:00
date-other-year = { $weekday } { $day } { $month } { $year }, { $time }
date-weekday = { $code ->
    [mon] Mon
    [tue] Tue
    [wed] Wed
    [thu] Thu
    [fri] Fri
    [sat] Sat
   *[sun] Sun
}
date-month = { $code ->
    [jan] Jan
    [feb] Feb
    [mar] Mar
    [apr] Apr
    [may] May
    [jun] Jun
    [jul] Jul
    [aug] Aug
    [sep] Sep
    [oct] Oct
    [nov] Nov
   *[dec] Dec
}
# Lengths of time: how late a reminder is, lead times.
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
lead-at-deadline = at the deadline
lead-before = { $duration } before the deadline
# Tomorrow and yesterday with the weekday and date, in confirmations: tomorrow, Wed 2 Dec, 09:00
date-tomorrow-dated = tomorrow, { $date }
date-yesterday-dated = yesterday, { $date }
# A day without its time (the morning agenda): Wed 2 Dec; of another year: Fri 1 Jan 2027
date-day = { $weekday } { $day } { $month }
date-day-other-year = { $weekday } { $day } { $month } { $year }
