# Dates, times and durations (src/i18n/dates.rs), shared by the chat and the reminders. Plain
# text. $time is the 24-hour clock ("09:00"); $day and $year are numbers; $weekday and $month are
# the names below (months in the genitive, abbreviated as in CLDR).
date-today = сегодня в { $time }
date-tomorrow = завтра в { $time }
date-yesterday = вчера в { $time }
# Another day of the current year: вт, 1 дек., 12:37
date-this-year = { $weekday }, { $day } { $month }, { $time }
# A day of another year: пт, 1 янв. 2027 г., 09:00
date-other-year = { $weekday }, { $day } { $month } { $year } г., { $time }
date-weekday = { $code ->
    [mon] пн
    [tue] вт
    [wed] ср
    [thu] чт
    [fri] пт
    [sat] сб
   *[sun] вс
}
date-month = { $code ->
    [jan] янв.
    [feb] февр.
    [mar] мар.
    [apr] апр.
    [may] мая
    [jun] июн.
    [jul] июл.
    [aug] авг.
    [sep] сент.
    [oct] окт.
    [nov] нояб.
   *[dec] дек.
}
# Lengths of time: how late a reminder is, lead times.
duration-minutes = { $n ->
    [one] { $n } минуту
    [few] { $n } минуты
   *[other] { $n } минут
}
duration-hours = { $n ->
    [one] { $n } час
    [few] { $n } часа
   *[other] { $n } часов
}
duration-days = { $n ->
    [one] { $n } день
    [few] { $n } дня
   *[other] { $n } дней
}
lead-at-deadline = в срок
lead-before = за { $duration } до срока
# Завтра и вчера с днём недели и датой, в подтверждениях: завтра, ср, 2 дек., 09:00
date-tomorrow-dated = завтра, { $date }
date-yesterday-dated = вчера, { $date }
# A day without its time (the morning agenda): ср, 2 дек.; of another year: пт, 1 янв. 2027 г.
date-day = { $weekday }, { $day } { $month }
date-day-other-year = { $weekday }, { $day } { $month } { $year } г.
