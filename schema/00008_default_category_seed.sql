-- +goose Up
-- A fresh install has a default category tree, so that a new member's first
-- step (POST /api/account/categories/import) gives them a working ledger.
-- Administrators edit it afterwards; an install that already has default
-- categories keeps its own.
WITH tree (pos, name, type, children) AS (
    VALUES
        (1,  '식비',        'expense', ARRAY['식료품', '외식', '카페·간식', '배달']),
        (2,  '교통',        'expense', ARRAY['대중교통', '택시', '주유', '주차·통행료']),
        (3,  '주거/통신',   'expense', ARRAY['월세·관리비', '전기·가스·수도', '인터넷·휴대폰']),
        (4,  '생활용품',    'expense', ARRAY['생필품', '가구·가전']),
        (5,  '의복/미용',   'expense', ARRAY['의류', '미용']),
        (6,  '건강/의료',   'expense', ARRAY['병원', '약국', '운동']),
        (7,  '교육',        'expense', ARRAY['학원·강의', '도서']),
        (8,  '문화/여가',   'expense', ARRAY['영화·공연', '여행', '취미', '구독서비스']),
        (9,  '경조사/선물', 'expense', ARRAY['경조사비', '선물']),
        (10, '금융',        'expense', ARRAY['보험', '대출이자', '수수료', '세금']),
        (11, '자녀/육아',   'expense', ARRAY[]::text[]),
        (12, '반려동물',    'expense', ARRAY[]::text[]),
        (13, '기타지출',    'expense', ARRAY[]::text[]),
        (14, '급여',        'income',  ARRAY['월급', '상여금']),
        (15, '부수입',      'income',  ARRAY['부업', '용돈', '이자·배당']),
        (16, '기타수입',    'income',  ARRAY[]::text[])
),
empty AS (
    SELECT NOT EXISTS (SELECT 1 FROM default_category) AS yes
),
parents AS (
    INSERT INTO default_category (parent_id, name, type, sort_order)
    SELECT NULL, t.name, t.type, t.pos * 100
    FROM tree t, empty
    WHERE empty.yes
    RETURNING id, name, type, sort_order
)
INSERT INTO default_category (parent_id, name, type, sort_order)
SELECT p.id, c.name, p.type, p.sort_order + c.pos
FROM parents p
JOIN tree t ON t.name = p.name
CROSS JOIN LATERAL unnest(t.children) WITH ORDINALITY AS c(name, pos);

-- +goose Down
-- The seed is data, which administrators may have edited since: it stays.
SELECT 1;
