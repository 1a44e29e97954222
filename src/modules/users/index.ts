import './user.type';
