cmd-start = Начать и выбрать часовой пояс
cmd-add = Добавить задачу: /add текст время
cmd-list = Ваши ближайшие задачи
cmd-done = Завершить задачу: /done номер
cmd-delete = Удалить задачу: /delete номер
cmd-settings = Напоминать заранее по умолчанию
cmd-lang = Сменить язык
cmd-tz = Сменить часовой пояс
cmd-help = Что я умею
start-welcome = Привет! Я напоминаю о задачах. Просто напишите, что и когда.
tz-ask = В каком вы часовом поясе? Нажмите кнопку или напишите город, имя пояса IANA или смещение от UTC.
tz-example = Ташкент
tz-set = Часовой пояс: { $tz }. Сейчас у вас { $now }.
tz-unknown = Я не знаю такого часового пояса. Напишите город, имя пояса IANA или смещение от UTC.
tz-offset-range = Такого смещения от UTC нет нигде на Земле: бывают от -12 до +14.
lang-ask = Выберите язык:
lang-set = Теперь я говорю по-русски.
lang-unknown = Я не знаю такого языка. Я говорю по-английски, по-русски и по-узбекски.
help-title = Как мной пользоваться
help-add = Напишите задачу и время, до или после текста:
help-lead = Напомнить заранее:
help-repeat = Повторяющиеся задачи:
help-commands = /list — ваши задачи; /done 12 и /delete 12 завершают или удаляют задачу 12; /cancel закрывает мой вопрос; /settings — напоминать заранее по умолчанию; /tz и /lang меняют часовой пояс и язык.
add-example = оплатить аренду завтра в 9:00
lead-example = встреча в пятницу в 15:00 за 30 минут
repeat-example = каждый понедельник в 10:00 планёрка
when-example = завтра в 9:00
settings-current = Новые задачи напоминаются: { $lead }.
settings-usage = Чтобы изменить, отправьте /settings и время, или /settings 0, чтобы напоминать в срок.
settings-example = /settings 30 мин
settings-set = Теперь новые задачи напоминаются: { $lead }.
settings-bad = Я не понимаю такое время.
task-saved = Задача сохранена
task-changed = Задача изменена
task-due = Срок: { $when }
task-remind = Напоминание: { $when }
task-repeats = Повтор: { $rule }
repeat-daily = каждый день
repeat-weekdays = по будням
repeat-monthly = каждый месяц, { $day }-го числа
button-undo = ↩️ Отменить
button-change-time = 🕒 Изменить время
button-edit = ✏️ Изменить
button-delete = 🗑 Удалить
button-snooze = 💤 Отложить
button-prev = ◀️ Назад
button-next = Дальше ▶️
ask-when = Когда напомнить об этой задаче?
ask-snooze = Когда напомнить снова?
snooze-example = через 30 минут
ask-edit = Что изменить? Отправьте время, день или новый текст — остальное останется как было.
list-title = { $count ->
    [one] У вас { $count } открытая задача
    [few] У вас { $count } открытые задачи
   *[other] У вас { $count } открытых задач
}
list-empty = У вас нет открытых задач. Напишите задачу со временем, чтобы добавить.
list-page = Страница { $page } из { $pages }
done-ok = Готово: { $text }
done-next = Готово. В следующий раз: { $when }
deleted = Удалено: { $text }
undone = Отменено, задача удалена: { $text }
snoozed = Напомню снова: { $when }.
callback-done = Готово ✅
callback-deleted = Удалено
callback-snoozed = Отложено
not-found = Задача не найдена. /list покажет ваши задачи.
stale-button = Эта кнопка больше не работает.
not-allowed-task = Изменить задачу может только её автор или администратор группы.
not-allowed-settings = Настройки группы может менять только администратор группы.
id-usage = Какая задача? Отправьте её номер из /list.
id-example-done = /done 12
id-example-delete = /delete 12
rate-limited = Слишком много сообщений сразу. Подождите минуту и попробуйте снова.
too-many-tasks = { $max ->
    [one] У вас уже { $max } открытая задача — это максимум. Сначала завершите или удалите одну (/list).
    [few] У вас уже { $max } открытые задачи — это максимум. Сначала завершите или удалите какие-нибудь (/list).
   *[other] У вас уже { $max } открытых задач — это максимум. Сначала завершите или удалите какие-нибудь (/list).
}
err-empty = Сообщение пустое. Напишите задачу и время.
err-too-long = Сообщение слишком длинное: не больше { $max } символов.
err-text-too-long = Текст задачи слишком длинный: { $len } символов, можно не больше { $max }.
err-no-text = О чём напомнить? Напишите задачу вместе со временем.
err-no-time = Я не нашёл здесь времени.
err-invalid-time = { $time } — такого времени нет: часы от 0 до 23, минуты от 0 до 59.
err-invalid-date = { $date } — такой даты нет в календаре.
err-invalid-day = Ни в одном месяце нет { $day }-го числа.
err-past = Это время уже прошло: { $when }.
err-too-far = Я принимаю даты только до конца { $year } года.
err-lead-too-long = Напоминание может прийти не раньше чем за { $days } дней до срока.
err-internal = У меня что-то сломалось. Ничего не потеряно, попробуйте ещё раз.
example-label = Например:
unknown-command = Я не знаю такой команды. /help покажет, что я умею.
lang-example = /lang uz
cmd-cancel = Отменить мой вопрос
edit-example = пятница 19:00
ask-when-still = Это я сохранил отдельной задачей. А когда напомнить об этой?
task-remind-clamped = Напоминание: { $when }, а не { $lead }: это время уже прошло.
task-remind-sent = Напоминание: уже отправлено
task-overdue = Срок уже прошёл, напоминания не будет. Нажмите «Изменить время», чтобы получить его.
undo-edit-title = Изменение отменено
undo-done-title = Задача снова открыта
undo-delete-title = Задача восстановлена
undo-used = Это уже отменено.
undo-outdated = Это уже нельзя отменить: задача с тех пор изменилась.
callback-undone = Отменено
callback-cancelled = Отменено
button-cancel = ✖️ Отмена
cancel-nothing = Отменять нечего: я ничего не спрашивал.
cancel-dropped = Отменено: «{ $text }» не сохранено.
cancel-edit = Отменено: задача #{ $id } осталась как была.
cancel-snooze = Отменено: напоминания задачи #{ $id } остались как были.
cancel-zone = Отменено: часовой пояс остался прежним.
cancel-zone-none = Отменено. Чтобы сохранять задачи, мне нужен ваш часовой пояс: отправьте /tz, когда будете готовы.
list-overdue = { $when }, просрочено
list-remind = напоминание { $when }
help-relative = Или через какое-то время:
relative-example = через 2 часа позвонить маме
help-buttons = Под каждой задачей: ↩️ «Отменить» возвращает то, что вы только что сделали (и после «Готово» или удаления); 🕒 «Изменить время» спрашивает новое время, день или текст и сохраняет остальное. Под напоминанием: 💤 отложить на 10 минут, на час, до завтрашнего утра или на другое время.
cmd-agenda = Задачи дня каждое утро: /agenda 8:00
agenda-title = { $day }: задачи на сегодня
agenda-empty = На сегодня задач нет.
agenda-more = { $count ->
    [one] …и ещё { $count } задача: /list
    [few] …и ещё { $count } задачи: /list
   *[other] …и ещё { $count } задач: /list
}
agenda-current = Утренний план приходит каждый день в { $time } ({ $zone }). /agenda off выключает его.
agenda-off-state = Утренний план выключен.
agenda-usage = Отправьте /agenda 8:00, чтобы каждое утро в 8:00 получать задачи на день.
agenda-set = Каждый день в { $time } я буду присылать задачи на день, а если их нет — короткую заметку. Первый раз: { $when }.
agenda-turned-off = Готово: утренний план выключен.
agenda-bad = Я не понимаю это время. Отправьте время суток или off.
agenda-example = /agenda 8:00
agenda-needs-zone = Чтобы присылать план вашим утром, мне нужен ваш часовой пояс; потом отправьте /agenda ещё раз.
task-nag = Пока не сделано: повторять раз в { $every } после каждого напоминания, { $max ->
    [one] не больше { $max } раза
   *[other] не больше { $max } раз
}.
nag-on = Буду напоминать раз в { $every }, пока задача не сделана, { $max ->
    [one] не больше { $max } раза
   *[other] не больше { $max } раз
}.
callback-nag = Буду напоминать
err-nag-interval = Повторять напоминание можно не чаще чем раз в { $min } и не реже чем раз в { $max }.
nag-example = позвонить маме через час каждые 10 минут пока не сделаю
quote-hint = Чтобы я напомнил об этом, ответьте на это сообщение временем.
quote-example = через 2 часа
repeat-weekly-one = { $code ->
    [mon] каждый понедельник
    [tue] каждый вторник
    [wed] каждую среду
    [thu] каждый четверг
    [fri] каждую пятницу
    [sat] каждую субботу
   *[sun] каждое воскресенье
}
repeat-day-in-list = { $code ->
    [mon] понедельникам
    [tue] вторникам
    [wed] средам
    [thu] четвергам
    [fri] пятницам
    [sat] субботам
   *[sun] воскресеньям
}
repeat-and = и
repeat-weekly-many = по { $days }
repeat-every-weeks = { $n ->
    [one] каждую { $n } неделю
    [few] каждые { $n } недели
   *[other] каждые { $n } недель
} по { $days }
repeat-hourly = каждый час
repeat-every-hours = { $n ->
    [one] каждый { $n } час
    [few] каждые { $n } часа
   *[other] каждые { $n } часов
}
repeat-every-days = { $n ->
    [one] каждый { $n } день
    [few] каждые { $n } дня
   *[other] каждые { $n } дней
}
repeat-every-months = { $n ->
    [one] каждый { $n } месяц
    [few] каждые { $n } месяца
   *[other] каждые { $n } месяцев
}, { $day }-го числа
repeat-monthly-last = каждый месяц в последний день
repeat-every-months-last = { $n ->
    [one] каждый { $n } месяц
    [few] каждые { $n } месяца
   *[other] каждые { $n } месяцев
} в последний день
repeat-month-name = { $code ->
    [jan] января
    [feb] февраля
    [mar] марта
    [apr] апреля
    [may] мая
    [jun] июня
    [jul] июля
    [aug] августа
    [sep] сентября
    [oct] октября
    [nov] ноября
   *[dec] декабря
}
repeat-yearly = каждый год { $day } { $month }
repeat-every-years = { $n ->
    [one] каждый { $n } год
    [few] каждые { $n } года
   *[other] каждые { $n } лет
} { $day } { $month }
# Zones and first contact, /settings' buttons, /export (issue 14).
cmd-export = Задачи файлами для календаря и таблицы
tz-share-location = Или отправьте геопозицию, и я поставлю часовой пояс этого места.
button-share-location = 📍 Отправить геопозицию
tz-current = Ваш часовой пояс: { $tz }. Местное время: { $now }.
tz-location-bad = Не могу найти часовой пояс для этого места.
first-task-hint = Теперь напишите первую задачу со временем, например: купить хлеб завтра в 18:00
zone-tashkent = Ташкент
zone-samarkand = Самарканд
zone-moscow = Москва
zone-almaty = Алматы
zone-berlin = Берлин
zone-london = Лондон
zone-new-york = Нью-Йорк
zone-utc = UTC
button-lead-none = В срок
settings-saved = Сохранено ✅
export-empty = Нет открытых задач для выгрузки.
export-calendar = { $count ->
    [one] { $count } открытая задача для календаря: откройте файл, чтобы добавить её.
    [few] { $count } открытые задачи для календаря: откройте файл, чтобы добавить их.
   *[other] { $count } открытых задач для календаря: откройте файл, чтобы добавить их.
}
export-capped = Здесь первые { $max } из { $count } задач, ближайшие по сроку.
export-table = Те же задачи таблицей, для электронных таблиц.
# What was assumed reading a time, and time words left in the text (issue 14).
assumed-hour = «{ $typed }» я понял как { $chosen }. Если вы имели в виду { $other }, нажмите «Изменить время» и отправьте { $other }.
assumed-time-not-said = Точное время не указано, поэтому я поставил { $chosen }.
assumed-next-weekday = Это на следующей неделе, не на этой: { $date }
assumed-next-week = Следующая неделя без дня — это её понедельник: { $date }
assumed-night-after = Это ночь после названного дня: { $date }
assumed-typo = «{ $typed }» я прочитал как «{ $read }».
unplaced-repeat = «{ $words }» не получилось сделать повтором, поэтому задача сохранена без повтора. Чтобы она повторялась, нажмите «Изменить время» и отправьте повтор, например: каждый день в 9:00
unplaced-kept = «{ $words }» я оставил в тексте задачи, а не во времени.
unplaced-repeat-loose = «{ $words }» не получилось сделать повтором.
edit-repeat-unknown = «{ $words }» не получилось сделать повтором, поэтому задача осталась как была. Отправьте время, день или повтор.
repeat-edit-example = каждый день в 9:00
