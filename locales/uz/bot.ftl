cmd-start = Boshlash va vaqt mintaqasini tanlash
cmd-add = Vazifa qo'shish: /add matn vaqt
cmd-list = Yaqin vazifalaringiz
cmd-done = Vazifani bajarish: /done raqam
cmd-delete = Vazifani o'chirish: /delete raqam
cmd-settings = Odatiy oldindan eslatish vaqti
cmd-lang = Tilni o'zgartirish
cmd-tz = Vaqt mintaqasini o'zgartirish
cmd-help = Nimalar qila olaman
start-welcome = Salom! Men vazifalaringizni eslatib turaman. Nima va qachon ekanini yozing.
tz-ask = Qaysi vaqt mintaqasidasiz? Tugmani bosing yoki shahar, IANA nomi yoki UTC siljishini yozing.
tz-example = Toshkent
tz-set = Vaqt mintaqasi: { $tz }. Hozir sizda { $now }.
tz-unknown = Bunday vaqt mintaqasini bilmayman. Shahar, IANA nomi yoki UTC siljishini yozing.
tz-offset-range = Yer yuzida bunday UTC siljishi yo'q: ular -12 dan +14 gacha.
lang-ask = Tilni tanlang:
lang-set = Endi o'zbekcha gaplashaman.
lang-unknown = Bunday tilni bilmayman. Men inglizcha, ruscha va o'zbekcha gaplashaman.
help-title = Mendan qanday foydalanish
help-add = Vazifani vaqti bilan yozing, matndan oldin yoki keyin:
help-lead = Muddatdan oldin eslatish:
help-repeat = Takrorlanadigan vazifalar:
help-commands = /list vazifalaringizni ko'rsatadi; /done 12 va /delete 12 12-vazifani bajaradi yoki o'chiradi; /settings odatiy oldindan eslatish vaqtini belgilaydi; /tz va /lang vaqt mintaqasi va tilni o'zgartiradi.
add-example = ertaga soat 9:00 da ijara to'lash
lead-example = juma soat 15:00 da uchrashuv 30 daqiqa oldin
repeat-example = har dushanba soat 10:00 da yig'ilish
when-example = ertaga 9:00
settings-current = Yangi vazifalar eslatiladi: { $lead }.
settings-usage = O'zgartirish uchun /settings va vaqtni yuboring, muddatda eslatish uchun /settings 0.
settings-example = /settings 30 daqiqa
settings-set = Endi yangi vazifalar eslatiladi: { $lead }.
settings-bad = Bu vaqtni tushunmadim.
task-saved = Vazifa saqlandi
task-changed = Vazifa o'zgartirildi
task-due = Muddat: { $when }
task-remind = Eslatma: { $when }
task-repeats = Takror: { $rule }
repeat-daily = har kuni
repeat-weekdays = ish kunlari
repeat-monthly = har oyning { $day }-kuni
button-undo = ↩️ Bekor qilish
button-change-time = 🕒 Vaqtni o'zgartirish
button-edit = ✏️ O'zgartirish
button-delete = 🗑 O'chirish
button-snooze = 💤 Keyinroq
button-prev = ◀️ Orqaga
button-next = Keyingi ▶️
ask-when = Bu vazifani qachon eslatay?
ask-snooze = Qachon yana eslatay?
snooze-example = 30 daqiqadan keyin
ask-edit = Yangi vaqtni yoki vaqti bilan yangi matnni yuboring.
list-title = Sizda { $count } ta ochiq vazifa bor
list-empty = Ochiq vazifalaringiz yo'q. Qo'shish uchun vazifani vaqti bilan yozing.
list-page = { $pages } sahifadan { $page }-sahifa
done-ok = Bajarildi: { $text }
done-next = Bajarildi. Keyingi safar: { $when }
deleted = O'chirildi: { $text }
undone = Bekor qilindi, vazifa o'chirildi: { $text }
snoozed = Yana eslataman: { $when }.
callback-done = Bajarildi ✅
callback-deleted = O'chirildi
callback-snoozed = Keyinga qoldirildi
not-found = Vazifa topilmadi. /list vazifalaringizni ko'rsatadi.
stale-button = Bu tugma endi ishlamaydi.
not-allowed-task = Vazifani faqat uning muallifi yoki guruh administratori o'zgartira oladi.
not-allowed-settings = Guruh sozlamalarini faqat guruh administratori o'zgartira oladi.
id-usage = Qaysi vazifa? /list dagi raqamini yuboring.
id-example-done = /done 12
id-example-delete = /delete 12
rate-limited = Juda ko'p xabar. Bir daqiqa kutib, qayta urinib ko'ring.
too-many-tasks = Sizda allaqachon { $max } ta ochiq vazifa bor, bu eng ko'pi. Avval ba'zilarini bajaring yoki o'chiring (/list).
err-empty = Xabar bo'sh. Vazifa va vaqtini yozing.
err-too-long = Xabar juda uzun: ko'pi bilan { $max } belgi.
err-text-too-long = Vazifa matni juda uzun: { $len } belgi, ko'pi bilan { $max }.
err-no-text = Nimani eslatay? Vazifani vaqti bilan birga yozing.
err-no-time = Bunda vaqtni topmadim.
err-invalid-time = { $time } kun vaqti emas: soatlar 0 dan 23 gacha, daqiqalar 0 dan 59 gacha.
err-invalid-date = { $date } kalendarda yo'q sana.
err-invalid-day = Hech bir oyda { $day }-kun yo'q.
err-past = Bu vaqt allaqachon o'tib ketgan: { $when }.
err-too-far = Faqat { $year }-yil oxirigacha bo'lgan sanalarni qabul qilaman.
err-lead-too-long = Eslatma muddatdan ko'pi bilan { $days } kun oldin kelishi mumkin.
err-internal = Menda nimadir buzildi. Hech narsa yo'qolmadi, qayta urinib ko'ring.
example-label = Masalan:
unknown-command = Bunday buyruqni bilmayman. /help nimalar qila olishimni ko'rsatadi.
lang-example = /lang ru
repeat-weekly-one = har { $code ->
    [mon] dushanba
    [tue] seshanba
    [wed] chorshanba
    [thu] payshanba
    [fri] juma
    [sat] shanba
   *[sun] yakshanba
}
repeat-day-in-list = { $code ->
    [mon] dushanba
    [tue] seshanba
    [wed] chorshanba
    [thu] payshanba
    [fri] juma
    [sat] shanba
   *[sun] yakshanba
}
repeat-and = va
repeat-weekly-many = har { $days }
repeat-every-weeks = har { $n } haftada { $days }
repeat-hourly = har soatda
repeat-every-hours = har { $n } soatda
repeat-every-days = har { $n } kunda
repeat-every-months = har { $n } oyda, { $day }-kuni
repeat-monthly-last = har oyning oxirgi kuni
repeat-every-months-last = har { $n } oyda, oyning oxirgi kuni
repeat-month-name = { $code ->
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
repeat-yearly = har yili { $day }-{ $month }
repeat-every-years = har { $n } yilda, { $day }-{ $month }
