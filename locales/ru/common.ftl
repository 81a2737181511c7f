# Shared by the chat and the reminders.
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
