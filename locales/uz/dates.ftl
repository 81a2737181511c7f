# Dates, times and durations (src/i18n/dates.rs), shared by the chat and the reminders. Plain
# text. $time is the 24-hour clock ("09:00"); $day and $year are numbers; $weekday and $month are
# the names below.
date-today = bugun { $time }
date-tomorrow = ertaga { $time }
date-yesterday = kecha { $time }
# Another day of the current year: 1-dekabr, seshanba, 12:37
date-this-year = { $day }-{ $month }, { $weekday }, { $time }
# A day of another year: 2027-yil 1-yanvar, juma, 09:00
date-other-year = { $year }-yil { $day }-{ $month }, { $weekday }, { $time }
date-weekday = { $code ->
    [mon] dushanba
    [tue] seshanba
    [wed] chorshanba
    [thu] payshanba
    [fri] juma
    [sat] shanba
   *[sun] yakshanba
}
date-month = { $code ->
    [jan] yanvar
    [feb] fevral
    [mar] mart
    [apr] aprel
    [may] may
    [jun] iyun
    [jul] iyul
    [aug] avgust
    [sep] sentabr
    [oct] oktabr
    [nov] noyabr
   *[dec] dekabr
}
# Lengths of time: how late a reminder is, lead times.
duration-minutes = { $n } daqiqa
duration-hours = { $n } soat
duration-days = { $n } kun
lead-at-deadline = muddatida
lead-before = muddatdan { $duration } oldin
# Ertaga va kecha hafta kuni va sanasi bilan, tasdiqlarda: ertaga, 2-dekabr, chorshanba, 09:00
date-tomorrow-dated = ertaga, { $date }
date-yesterday-dated = kecha, { $date }
# A day without its time (the morning agenda): 2-dekabr, chorshanba; of another year: 2027-yil 1-yanvar, juma
date-day = { $day }-{ $month }, { $weekday }
date-day-other-year = { $year }-yil { $day }-{ $month }, { $weekday }
