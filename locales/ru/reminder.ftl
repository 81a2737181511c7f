reminder-title = Напоминание
reminder-due = Срок: { $when }
reminder-late = С опозданием на { $late }: бот не смог отправить вовремя.
button-done = ✅ Готово
button-snooze-10m = 10 мин
button-snooze-1h = 1 час
button-snooze-tomorrow = Завтра утром
button-snooze-custom = Другое время…
duration-minutes = { $n ->
    [one] { $n } минуту
    [few] { $n } минуты
   *[many] { $n } минут
}
duration-hours = { $n ->
    [one] { $n } час
    [few] { $n } часа
   *[many] { $n } часов
}
duration-days = { $n ->
    [one] { $n } день
    [few] { $n } дня
   *[many] { $n } дней
}
