import './friend.policy';
import './friend.type';
import './friend.queries';
import './friend.mutations';
